/* SPDX-License-Identifier: LGPL-2.1-or-later */
#ifndef PERFEV_SYMBOLS_CAPSTONE_H
#define PERFEV_SYMBOLS_CAPSTONE_H

#include <capstone/capstone.h>

/*
 * capstone's functions, from the shared library loaded on first use.
 * Linked, its pointer tables (some 80,000 relocations) cost every start
 * of every program that links libperfev about a millisecond; loaded here,
 * only what disassembles pays, once.
 */
struct perfev__capstone {
	cs_err (*open)(cs_arch arch, cs_mode mode, csh *handle);
	cs_err (*option)(csh handle, cs_opt_type type, size_t value);
	cs_insn *(*malloc)(csh handle);
	bool (*disasm_iter)(csh handle, const uint8_t **code, size_t *size, uint64_t *address,
			    cs_insn *insn);
	void (*free)(cs_insn *insn, size_t count);
	cs_err (*close)(csh *handle);
};

/*
 * The functions, or NULL with errno set: ENOENT when the library (of the
 * major version the headers describe) is not installed, ENOTSUP when the
 * one found is of another version.  Thread-safe; loaded once.
 */
const struct perfev__capstone *perfev__capstone(void);

#endif
