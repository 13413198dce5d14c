/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * Fuzz target: the net_aqc_sim devargs parser (aqc_sim_parse_devargs).
 *
 * Input: the devargs text ("k=v,k=v", cut at a NUL). Properties
 * (aqc_sim_devargs.h):
 *   - refused: -EINVAL and one log line (newlines in the input aside),
 *     naming the device and what
 *     the input holds: "bad devarg K=V" with K=V in the input, "unknown
 *     devarg 'K'" with K= in it, "devarg 'T' has no value" with T in it;
 *   - accepted: nothing logged, and the configuration is coherent - a
 *     generation, rates and a firmware version set, the aqc107 without
 *     10M, pcap paths and a peer only with their wire (and wire=peer only
 *     with a peer), a firmware fault the
 *     generation has, rx_delay_ms in range;
 *   - nothing leaks (LeakSanitizer).
 * sfp=FILE reads a file: only relative paths without ".." are tried, so a
 * mutation never opens a device node (such an input is skipped).
 */
#include <errno.h>
#include <string.h>

#include <rte_log.h>

#include "aqc2_regs.h"
#include "aqc_sim_devargs.h"
#include "fuzz.h"

#define DEV "net_aqc_sim0"

static bool
in_input(const char *in, const char *s, size_t n)
{
	return n == 0 || memmem(in, strlen(in), s, n) != NULL;
}

/* The one line logged for a refusal names the device and input bytes. */
static void
check_refusal(const char *in, const char *log, size_t loglen)
{
	size_t nl_log = 0, nl_in = 0;
	const char *p, *e;

	/* one line, but for newlines the input itself put in the value */
	FUZZ_CHECK(loglen > 0 && log[loglen - 1] == '\n');
	for (size_t i = 0; i < loglen; i++)
		nl_log += log[i] == '\n';
	for (const char *c = in; *c; c++)
		nl_in += *c == '\n';
	FUZZ_CHECK(nl_log >= 1 && nl_log <= 1 + nl_in);
	/* the message follows the first "DEV: " (what comes after may quote
	 * input that looks like a message itself) */
	p = strstr(log, DEV ": ");
	FUZZ_CHECK(p != NULL);
	p += strlen(DEV ": ");
	if (strncmp(p, "bad devarg ", 11) == 0) {
		p += 11;
		e = strstr(p, ": ");
		FUZZ_CHECK(e != NULL && in_input(in, p, (size_t)(e - p)));
	} else if (strncmp(p, "unknown devarg '", 16) == 0) {
		p += 16;
		e = strstr(p, "' (known: ");
		FUZZ_CHECK(e != NULL && in_input(in, p, (size_t)(e - p)));
	} else if (strncmp(p, "devarg '", 8) == 0) {
		p += 8;
		e = strstr(p, "' has no value");
		FUZZ_CHECK(e != NULL && in_input(in, p, (size_t)(e - p)));
	} else {
		FUZZ_CHECK(!"refusal without a known message");
	}
}

static void
check_config(const struct aqc_model_config *c)
{
	FUZZ_CHECK(c->gen == AQC_MODEL_AQC107 || c->gen == AQC_MODEL_AQC113);
	FUZZ_CHECK(c->rates != 0 && c->fw_version != 0);
	FUZZ_CHECK(c->gen != AQC_MODEL_AQC107 || !(c->rates & AQC_RATE_10M));
	FUZZ_CHECK(c->gen == AQC_MODEL_AQC107 ?
		   (c->fw_fault == AQC_FW_OK || c->fw_fault == AQC_FW_MUTE) :
		   c->fw_fault != AQC_FW_MUTE);
	FUZZ_CHECK((c->rx_pcap[0] == '\0' && c->tx_pcap[0] == '\0') || c->wire == AQC_WIRE_PCAP);
	FUZZ_CHECK(c->peer[0] == '\0' || (c->wire == AQC_WIRE_PEER && strcmp(c->peer, DEV) != 0));
	FUZZ_CHECK(c->wire != AQC_WIRE_PEER || c->peer[0] != '\0');
	FUZZ_CHECK(c->rx_delay_ms <= AQC_RX_DELAY_MS_MAX);
	FUZZ_CHECK(c->rx_loops == 1 || c->rx_pcap[0] != '\0');
	FUZZ_CHECK(c->fault_every <= AQC_FAULT_EVERY_MAX);
	FUZZ_CHECK(!c->sfp_present || c->gen == AQC_MODEL_AQC107);
	FUZZ_CHECK(!(c->mac[0] & 1));
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct aqc_model_config c;
	char *in, *log = NULL;
	const char *s;
	size_t loglen = 0;
	bool dma_auto = true;
	FILE *f;
	int rc;

	fuzz_pool(); /* the EAL, for its log */
	in = strndup((const char *)data, size);
	FUZZ_CHECK(in != NULL);
	for (s = in; (s = strstr(s, "sfp=")) != NULL; s += 4) {
		if (s[4] == '/' || strstr(s, "..") != NULL) {
			free(in);
			return 0;
		}
	}
	aqc_model_config_default(&c, DEV);
	f = open_memstream(&log, &loglen);
	FUZZ_CHECK(f != NULL);
	FUZZ_CHECK(rte_openlog_stream(f) == 0);
	rc = aqc_sim_parse_devargs(&c, DEV, in, &dma_auto);
	rte_openlog_stream(NULL);
	fclose(f);
	if (rc == 0) {
		FUZZ_CHECK(loglen == 0);
		check_config(&c);
	} else {
		FUZZ_CHECK(rc == -EINVAL);
		check_refusal(in, log, loglen);
	}
	free(log);
	free(in);
	return 0;
}
