/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_eal: start DPDK's EAL the way tagpipe's apps do.
 *
 * Command lines follow dpdk-testpmd: EAL options, then "--", then the app's
 * own. Without "--" the app's default EAL options are used (plus
 * --in-memory and a --file-prefix unique to the process).
 *
 * Hugepage fallback: when the machine has no free hugepages and the EAL
 * options do not say --no-huge, tp_eal_init() prints one warning line and
 * adds --no-huge --no-shconf (and -m 1024 unless memory is given), dropping
 * a --in-memory, which DPDK 22.11 refuses together with --no-huge ("Option
 * --legacy-mem is not compatible with --in-memory"). Every other explicit
 * EAL option is used as given.
 */
#ifndef TP_EAL_H
#define TP_EAL_H

#include <stdbool.h>

#include <rte_compat.h>

/* Free 2 MiB or 1 GiB hugepages on this machine (any size). Internal
 * (version node INTERNAL): for tagpipe's own components, not part of the
 * ABI; a caller must define ALLOW_INTERNAL_API, as for DPDK's own. */
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
 * Does not: parse application options, or stop the EAL (tp_eal_cleanup()).
 */
int tp_eal_init(int argc, char **argv, const char *const *defaults,
		bool *fell_back);

/**
 * Stop the EAL (rte_eal_cleanup()). The runtime directory DPDK made
 * (/var/run/dpdk/<file-prefix>) is removed at exit, so runs do not leave
 * one directory each behind: a primary process first removes the files
 * its EAL put there for secondary processes (config, hugepage_info,
 * fbarray_*, mp_socket*); a directory holding anything else stays.
 * @return the result of rte_eal_cleanup().
 */
int tp_eal_cleanup(void);

#endif /* TP_EAL_H */
