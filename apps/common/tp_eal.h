/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tp_eal: start DPDK's EAL the way tagpipe's apps do.
 *
 * Command lines follow dpdk-testpmd: EAL options, then "--", then the app's
 * own. Without "--", a command line that starts with an EAL option is EAL
 * options alone (testpmd's "dpdk-testpmd -l 0-1 --vdev ..."); one that
 * does not is the app's options alone, and the app's default EAL options
 * are used (plus --in-memory and a --file-prefix unique to the process).
 * No EAL option a user gave is ever dropped: an argument that cannot be
 * placed (an app option among EAL options without "--", an EAL long option
 * among the app's) is an error naming it.
 *
 * Hugepage fallback: when the machine has no free hugepages and the EAL
 * options do not say --no-huge, tp_eal_init() prints one warning line and
 * adds --no-huge --no-shconf (and -m 1024 unless memory is given), dropping
 * a --in-memory, which DPDK 22.11 refuses together with --no-huge ("Option
 * --legacy-mem is not compatible with --in-memory"). Every other explicit
 * EAL option is used as given. --no-shconf means no secondary process
 * (dpdk-dumpcap, dpdk-pdump, dpdk-proc-info) can attach; the warning says
 * so.
 */
#ifndef TP_EAL_H
#define TP_EAL_H

#include <stdbool.h>
#include <stddef.h>


/* Free 2 MiB or 1 GiB hugepages on this machine (any size). */
unsigned long tp_eal_free_hugepages(void);

/**
 * Where the application's arguments start in argv, by the rules above,
 * without starting anything (an app checks its own options first).
 * Every argument before that index that is not argv[0] or "--" is an EAL
 * option of DPDK 22.11 or its value.
 * @return that index (argc when there is none), or -EINVAL with err naming
 *         the argument that is out of place.
 */
int tp_eal_app_args(int argc, char *const *argv, char *err, size_t errlen);

/**
 * Start the EAL.
 *
 * @param argc, argv  the program's arguments.
 * @param defaults    NULL-terminated EAL options used when argv has no EAL
 *                    options of its own (no "--" and argv[1] is not an EAL
 *                    option), e.g. "-l", "0", "--no-pci"; may be NULL.
 * @param fell_back   set to true when hugepages were missing and the EAL was
 *                    started with --no-huge --no-shconf; may be NULL.
 * @return index in argv of the first application argument (argc when there
 *         is none), or a negative errno: -EINVAL for an argument out of
 *         place (tp_eal_app_args; printed as "argv[0]: error: ..." on
 *         stderr), else the EAL's failure (its reason printed by the EAL).
 *
 * Does not: parse application options, or stop the EAL (tp_eal_cleanup()).
 */
int tp_eal_init(int argc, char **argv, const char *const *defaults,
		bool *fell_back);

/**
 * Did tp_eal_init() start the EAL with a shared configuration (neither
 * --no-shconf nor --in-memory), so that secondary processes can attach
 * (dpdk-dumpcap, dpdk-pdump, dpdk-proc-info)?
 */
bool tp_eal_shared_config(void);

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
