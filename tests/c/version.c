/*
 * version.c: collide's version, as the header's macros and the library's
 * phys_version()/phys_version_number() give it, from C99 (or C++17).
 *
 * It prints one line that tests/shipping.rs compares with Cargo.toml's
 * version:
 *
 *   version macro=S number=N major=A minor=B patch=C lib=S lib_number=N
 *
 * and exits with status 1 if the header and the library disagree, or if
 * PHYS_VERSION_NUMBER is not (major << 16) | (minor << 8) | patch.
 */
#include "collide.h"

#include <stdio.h>
#include <string.h>

int main(void) {
    char from_parts[64];
    const char *lib = phys_version();
    uint32_t lib_number = phys_version_number();
    uint32_t number = PHYS_VERSION_NUMBER;
    int ok = 1;

    printf("version macro=%s number=%lu major=%d minor=%d patch=%d lib=%s lib_number=%lu\n", PHYS_VERSION_STRING,
           (unsigned long)number, PHYS_VERSION_MAJOR, PHYS_VERSION_MINOR, PHYS_VERSION_PATCH, lib,
           (unsigned long)lib_number);

    sprintf(from_parts, "%d.%d.%d", PHYS_VERSION_MAJOR, PHYS_VERSION_MINOR, PHYS_VERSION_PATCH);
    if (strcmp(from_parts, PHYS_VERSION_STRING) != 0) {
        fprintf(stderr, "version: PHYS_VERSION_STRING %s is not MAJOR.MINOR.PATCH %s\n", PHYS_VERSION_STRING,
                from_parts);
        ok = 0;
    }
    if (number != (((uint32_t)PHYS_VERSION_MAJOR << 16) | ((uint32_t)PHYS_VERSION_MINOR << 8) |
                   (uint32_t)PHYS_VERSION_PATCH)) {
        fprintf(stderr, "version: PHYS_VERSION_NUMBER %lu does not pack MAJOR, MINOR, PATCH\n",
                (unsigned long)number);
        ok = 0;
    }
    if (strcmp(lib, PHYS_VERSION_STRING) != 0 || lib_number != number) {
        fprintf(stderr, "version: the library is %s (%lu), the header %s (%lu)\n", lib, (unsigned long)lib_number,
                PHYS_VERSION_STRING, (unsigned long)number);
        ok = 0;
    }
    return ok ? 0 : 1;
}
