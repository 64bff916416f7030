// SPDX-License-Identifier: LGPL-2.1-or-later
/* libFuzzer harness: the x86 instruction length decoder (perfev_insn_len_x86). */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <perfev/perfev.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	size_t i;
	int mode;

	/* Every start of the input, in both modes, from an exact-size copy (ASan sees overreads).
	 */
	for (mode = 0; mode < 2; mode++) {
		for (i = 0; i < size && i < 64; i++) {
			uint8_t *copy = malloc(size - i);
			int len;

			if (!copy)
				return 0;
			memcpy(copy, data + i, size - i);
			len = perfev_insn_len_x86(copy, size - i, mode);
			if (len != -EBADMSG && (len < 1 || len > 15 || (size_t)len > size - i))
				abort();
			free(copy);
		}
	}
	return 0;
}
