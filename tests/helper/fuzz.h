/* The libFuzzer entry point of the protocol fuzzer, also called by the plain corpus driver. */
#pragma once

#include <stddef.h>
#include <stdint.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
