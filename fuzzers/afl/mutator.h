/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The AFL++ custom mutator API (AFL++ 4.04c, docs/custom_mutators.md) as
 * mmfuzz-mutator.so exports it: these functions and nothing else. AFL's
 * headers are not needed: its state is an opaque pointer here.
 */
#ifndef MMF_AFL_MUTATOR_H
#define MMF_AFL_MUTATOR_H

#include <stddef.h>
#include <stdint.h>

#define MMF_AFL_API	__attribute__((visibility("default")))

MMF_AFL_API void *afl_custom_init(void *afl, unsigned int seed);
MMF_AFL_API size_t afl_custom_fuzz(void *data, uint8_t *buf, size_t buf_size, uint8_t **out_buf,
				   uint8_t *add_buf, size_t add_buf_size, size_t max_size);
MMF_AFL_API const char *afl_custom_describe(void *data, size_t max_description_len);
MMF_AFL_API size_t afl_custom_post_process(void *data, uint8_t *buf, size_t buf_size,
					   uint8_t **out_buf);
MMF_AFL_API int32_t afl_custom_init_trim(void *data, uint8_t *buf, size_t buf_size);
MMF_AFL_API size_t afl_custom_trim(void *data, uint8_t **out_buf);
MMF_AFL_API int32_t afl_custom_post_trim(void *data, uint8_t success);
MMF_AFL_API void afl_custom_deinit(void *data);

#endif
