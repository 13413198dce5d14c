/* SPDX-License-Identifier: BSD-3-Clause */
/*
 * The A1 chip model's firmware services, driven register by register the
 * way the Linux driver's hw_atl/hw_atl_utils.c (hw_atl_utils_fw_upload_dwords
 * B1 path, hw_atl_utils_fw_rpc_call / _wait) and DPDK's hw_atl_utils_fw2x.c
 * (aq_fw2x_set_wol_params, aq_fw2x_get_eeprom) do, written here from those
 * sequences and not through any driver:
 *  - the B1 upload mailbox stores each dword at its RPC-buffer offset and
 *    clears the area code; an offset outside the buffer is counted;
 *  - an RPC transaction is acknowledged with its id and an empty reply and
 *    the message is recorded byte for byte;
 *  - WoL / sleep-proxy arming bits are echoed;
 *  - an SMBus read returns the module's bytes, and fails with a nonzero
 *    status for an unknown device, a range past 256 bytes or no module.
 */
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <rte_bus_vdev.h>
#include <rte_cycles.h>
#include <rte_ethdev.h>

#include "aqc_test.h"

static struct aqc_model *model;
static uint8_t sfp[512];

static uint32_t
rd(uint32_t off)
{
	return __atomic_load_n((uint32_t *)(void *)(aqc_model_bar(model) + off),
			       __ATOMIC_ACQUIRE);
}

static void
wr(uint32_t off, uint32_t v)
{
	__atomic_store_n((uint32_t *)(void *)(aqc_model_bar(model) + off), v,
			 __ATOMIC_RELEASE);
}

/* Wait up to 1 s for (reg & mask) == want. */
static void
wait_for(uint32_t off, uint32_t mask, uint32_t want)
{
	for (int i = 0; i < 100000 && (rd(off) & mask) != want; i++)
		rte_delay_us_sleep(10);
	assert_int_equal(rd(off) & mask, want);
}

/* Linux hw_atl_utils_fw_upload_dwords, B1: 0x328 data, 0x32C = 0x80000000 |
 * byte offset, 0x404 bit 1, wait for bits 31:28 != 8. */
static void
upload(const uint32_t *p, unsigned int n)
{
	for (unsigned int i = 0; i < n; i++) {
		wr(0x328, p[i]);
		wr(0x32c, 0x80000000u | (4 * i));
		wr(0x404, rd(0x404) | 0x2);
		wait_for(0x32c, 0xf0000000u, 0);
	}
}

/* MIF read (docs/ref/aqc.md §3.1, B1: the address moves on by 4 when done). */
static uint32_t
mcp_read(uint32_t addr)
{
	wr(0x208, addr);
	wr(0x200, 0x8000);
	wait_for(0x208, 0xffffffffu, addr + 4);
	return rd(0x20c);
}

static int
setup(void **state)
{
	struct aqc_model_config cfg;
	int err;

	(void)state;
	assert_int_equal(tp_test_eal_init(NULL), 0);
	aqc_model_config_default(&cfg, "fwif0");
	for (unsigned int i = 0; i < sizeof(sfp); i++)
		sfp[i] = (uint8_t)(i * 13u + 5u);
	cfg.sfp_present = true;
	memcpy(cfg.sfp, sfp, sizeof(sfp));
	model = aqc_model_create(&cfg, &err);
	assert_non_null(model);
	assert_int_not_equal(rd(0x334), 0);     /* the RPC buffer is published */
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	aqc_model_destroy(model);
	return 0;
}

/* FW 2.x WoL message (DPDK hw_atl_utils_fw2x.c struct fw2x_msg_wol): msg
 * id 0x0E, MAC, magic-packet flag; sent as an RPC, then 0x36C bit 24 set
 * and its echo in 0x374 awaited. */
static void
test_rpc_wol(void **state)
{
	struct aqc_model_fw_log log0, log1;
	uint8_t msg[16] = { 0x0e, 0, 0, 0, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55, 1, 0 };
	uint32_t dw[4], tid = (rd(0x33c) & 0xffff) + 1;

	(void)state;
	memcpy(dw, msg, sizeof(dw));
	aqc_model_get_fw_log(model, &log0);
	upload(dw, 4);
	wr(0x338, tid | (uint32_t)sizeof(msg) << 16);
	wait_for(0x33c, 0xffff, tid);
	/* empty reply: length 0 */
	assert_int_equal(rd(0x33c) >> 16, 0);
	aqc_model_get_fw_log(model, &log1);
	assert_int_equal(log1.uploads - log0.uploads, 4);
	assert_int_equal(log1.rpc_calls - log0.rpc_calls, 1);
	assert_int_equal(log1.rpc_msg_id, 0x0e);
	assert_int_equal(log1.rpc_len, sizeof(msg));
	assert_memory_equal(log1.rpc_msg, msg, sizeof(msg));
	assert_int_equal(log1.rpc_msg[sizeof(msg)], 0);
	/* arm WoL and sleep proxy: bits 24 and 23 echoed */
	wr(0x36c, rd(0x36c) | 1u << 24 | 1u << 23);
	wait_for(0x374, 3u << 23, 3u << 23);
	wr(0x36c, rd(0x36c) & ~(1u << 24));
	wait_for(0x374, 3u << 23, 1u << 23);
	/* the same transaction id again is no new call */
	rte_delay_us_sleep(5000);
	aqc_model_get_fw_log(model, &log0);
	assert_int_equal(log0.rpc_calls, log1.rpc_calls);
}

static void
test_upload_outside(void **state)
{
	struct aqc_model_fw_log log0, log1;

	(void)state;
	aqc_model_get_fw_log(model, &log0);
	wr(0x328, 0x12345678);
	wr(0x32c, 0x8000fffcu);                 /* offset 0xFFFC: past the buffer */
	wr(0x404, rd(0x404) | 0x2);
	wait_for(0x32c, 0xf0000000u, 0);
	wait_for(0x404, 0x2, 0);
	aqc_model_get_fw_log(model, &log1);
	assert_int_equal(log1.upload_errors - log0.upload_errors, 1);
	assert_int_equal(log1.uploads, log0.uploads);
}

/* One SMBus read (DPDK aq_fw2x_get_eeprom): status at +4, data at +8. */
static uint32_t
smbus_read(uint32_t dev, uint32_t off, uint32_t len, uint8_t *out)
{
	uint32_t req[4] = { 0, dev, off, len }, rpc = rd(0x334), want, status;

	upload(req, 4);
	want = rd(0x368) ^ (1u << 13);
	wr(0x368, want);
	wait_for(0x370, 1u << 13, want & (1u << 13));
	status = mcp_read(rpc + 4);
	for (uint32_t i = 0; status == 0 && i < (len + 3) / 4; i++) {
		uint32_t v = mcp_read(rpc + 8 + 4 * i);

		memcpy(out + 4 * i, &v, RTE_MIN(4u, len - 4 * i));
	}
	return status;
}

static void
test_smbus_read(void **state)
{
	uint8_t got[256];

	(void)state;
	assert_int_equal(smbus_read(0x50, 0, 256, got), 0);
	assert_memory_equal(got, sfp, 256);
	assert_int_equal(smbus_read(0x51, 96, 10, got), 0);
	assert_memory_equal(got, sfp + 256 + 96, 10);
	assert_int_not_equal(smbus_read(0x52, 0, 4, got), 0);   /* no such device */
	assert_int_not_equal(smbus_read(0x50, 250, 8, got), 0); /* past 256 */
}

/* sfp=FILE on a net_aqc_sim port: the module net_aqc reads is the file's
 * bytes; a 256-byte image is SFF-8079 (A0h only), a bad size an error;
 * without sfp= the module operations are not supported. */
static void
test_sim_sfp_devarg(void **state)
{
	char path[64], args[128];
	uint8_t img[512], got[512];
	struct rte_eth_dev_module_info mi;
	struct rte_dev_eeprom_info e = { .data = got, .length = 512 };
	uint16_t port;
	FILE *f;

	(void)state;
	/* no sfp=: nothing answers at 0x50, which is no removed device
	 * (-EIO to ethdev's callers) but an operation this port has not */
	assert_int_equal(rte_vdev_init("net_aqc_sim5", "wire=none"), 0);
	assert_int_equal(rte_eth_dev_get_port_by_name("net_aqc_sim5", &port), 0);
	assert_int_equal(rte_eth_dev_get_module_info(port, &mi), -ENOTSUP);
	e.length = 256;
	assert_int_equal(rte_eth_dev_get_module_eeprom(port, &e), -ENOTSUP);
	assert_int_equal(rte_vdev_uninit("net_aqc_sim5"), 0);
	snprintf(path, sizeof(path), "/tmp/tp_fwif_sfp_%d.bin", (int)getpid());
	for (unsigned int i = 0; i < sizeof(img); i++)
		img[i] = (uint8_t)(i * 29u + 7u);
	img[92] = 0x68;                          /* SFF-8472: DDM, no address change */
	img[94] = 0x08;                          /* compliance Rev 12.3 */
	for (int round = 0; round < 3; round++) {
		size_t n = round == 0 ? 512 : round == 1 ? 256 : 300;

		f = fopen(path, "wb");
		assert_non_null(f);
		assert_int_equal(fwrite(img, 1, n, f), n);
		fclose(f);
		snprintf(args, sizeof(args), "wire=none,sfp=%s", path);
		if (n == 300) {
			assert_true(rte_vdev_init("net_aqc_sim5", args) < 0);
			break;
		}
		assert_int_equal(rte_vdev_init("net_aqc_sim5", args), 0);
		assert_int_equal(rte_eth_dev_get_port_by_name("net_aqc_sim5", &port), 0);
		assert_int_equal(rte_eth_dev_get_module_info(port, &mi), 0);
		if (n == 512) {
			assert_int_equal(mi.type, RTE_ETH_MODULE_SFF_8472);
			assert_int_equal(mi.eeprom_len, 512);
		} else {
			/* no A2h page given: byte 94 says none is there */
			assert_int_equal(mi.type, RTE_ETH_MODULE_SFF_8472);
		}
		e.length = 256;
		assert_int_equal(rte_eth_dev_get_module_eeprom(port, &e), 0);
		assert_memory_equal(got, img, 256);
		assert_int_equal(rte_vdev_uninit("net_aqc_sim5"), 0);
	}
	unlink(path);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rpc_wol),
		cmocka_unit_test(test_upload_outside),
		cmocka_unit_test(test_smbus_read),
		cmocka_unit_test(test_sim_sfp_devarg),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
