/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_eal: start DPDK's EAL the way tagpipe's apps do.
 *
 * Command lines follow dpdk-testpmd: EAL options, then "--", then the app's
 * own. When the command line has no "--", the app gets default EAL options
 * and, if the machine has no free hugepages, runs with --no-huge --no-shconf
 * after printing a one-line warning (DPDK 22.11 refuses --no-huge with
 * --in-memory); with hugepages it runs --in-memory. Explicit EAL options are used as given.
 */
#ifndef TP_EAL_H
#define TP_EAL_H

#include <stdbool.h>

/* Free 2 MiB or 1 GiB hugepages on this machine (any size). */
unsigned long tp_eal_free_hugepages(void);

/**
 * Start the EAL.
 *
 * @param argc, argv  the program's arguments.
 * @param defaults    NULL-terminated EAL options used when argv has no "--"
 *                    (e.g. "-l", "0", "--no-pci"); may be NULL.
 * @param fell_back   set to true when hugepages were missing and the EAL was
 *                    started with --no-huge --no-shconf; may be NULL.
 * @return index in argv of the first application argument (argc when there
 *         is none), or a negative errno when the EAL failed (its reason is
 *         printed by the EAL).
 *
 * Does not: parse application options, or stop the EAL (rte_eal_cleanup()).
 */
int tp_eal_init(int argc, char **argv, const char *const *defaults,
		bool *fell_back);

#endif /* TP_EAL_H */
