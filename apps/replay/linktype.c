/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * tagpipe-replay: pcap link types. The DSA link types of the tcpdump.org
 * link-type registry (libpcap's pcap/dlt.h: DLT_DSA_TAG_BRCM 281,
 * DLT_DSA_TAG_BRCM_PREPEND 282, DLT_DSA_TAG_DSA 284, DLT_DSA_TAG_EDSA 285)
 * name the switch tag every frame carries, so they pick our tagger of the
 * same format; output that carries such a tag is written with its link type
 * so that tcpdump and Wireshark decode the tag.
 */
#include <stdio.h>
#include <string.h>

#include <pcap/pcap.h>

#include "replay.h"

/* pcap/dlt.h has them since libpcap 1.9; spelled out for older headers. */
#ifndef DLT_DSA_TAG_BRCM
#define DLT_DSA_TAG_BRCM 281
#define DLT_DSA_TAG_BRCM_PREPEND 282
#endif
#ifndef DLT_DSA_TAG_DSA
#define DLT_DSA_TAG_DSA 284
#define DLT_DSA_TAG_EDSA 285
#endif

static const struct {
	int dlt;
	const char *tagger;  /* tp_dsa_tagger name of the same tag format */
} dsa_linktypes[] = {
	{ DLT_DSA_TAG_BRCM, "brcm" },
	{ DLT_DSA_TAG_BRCM_PREPEND, "brcm-prepend" },
	{ DLT_DSA_TAG_DSA, "dsa" },
	{ DLT_DSA_TAG_EDSA, "edsa" },
};

const char *
replay_linktype_tagger(int dlt)
{
	for (unsigned int i = 0; i < RTE_DIM(dsa_linktypes); i++)
		if (dsa_linktypes[i].dlt == dlt)
			return dsa_linktypes[i].tagger;
	return NULL;
}

int
replay_tagger_linktype(const char *tagger)
{
	for (unsigned int i = 0; i < RTE_DIM(dsa_linktypes); i++)
		if (strcmp(dsa_linktypes[i].tagger, tagger) == 0)
			return dsa_linktypes[i].dlt;
	return DLT_EN10MB;
}

bool
replay_linktype_is_ethernet(int dlt)
{
	return dlt == DLT_EN10MB || replay_linktype_tagger(dlt) != NULL;
}

const char *
replay_linktype_name(int dlt, char *buf, size_t size)
{
	const char *name = pcap_datalink_val_to_name(dlt);
	const char *desc = pcap_datalink_val_to_description(dlt);

	if (name == NULL)
		snprintf(buf, size, "link type %d (unknown to libpcap)", dlt);
	else
		snprintf(buf, size, "%s (LINKTYPE_%s)", desc != NULL ? desc : name, name);
	return buf;
}
