#!/bin/sh
# Installs collide into PREFIX, after `cargo build --release`:
#
#   cargo build --release && packaging/install.sh /usr/local
#
#   PREFIX/include/collide.h                      the C header
#   PREFIX/include/collide.hpp                    the header-only C++17 wrapper
#   PREFIX/lib/libcollide.a                       the static library
#   PREFIX/lib/libcollide.so.VERSION              the shared library (SONAME
#   PREFIX/lib/libcollide.so.MAJOR -> .so.VERSION libcollide.so.MAJOR), with the
#   PREFIX/lib/libcollide.so -> .so.MAJOR         loader's and the linker's links
#   PREFIX/lib/pkgconfig/collide.pc               for `pkg-config --cflags --libs collide`
#   PREFIX/lib/cmake/collide/collideConfig.cmake  for `find_package(collide)`:
#   PREFIX/lib/cmake/collide/collideConfigVersion.cmake   collide::collide (static)
#                                                 and collide::shared
#
# Environment (optional):
#   COLLIDE_LIBDIR  where libcollide.a and libcollide.so are (default
#                   target/release of this checkout)
#   NATIVE_LIBS     the system libraries Rust's std needs, for linking the
#                   static library (default: the x86_64-unknown-linux-gnu list
#                   below; on another platform take it from
#                   `cargo rustc --release --lib --crate-type staticlib -- --print native-static-libs`)
set -eu

# `cargo rustc --release --lib --crate-type staticlib -- --print native-static-libs`
# on x86_64-unknown-linux-gnu; tests/shipping.rs holds this line to it.
DEFAULT_NATIVE_LIBS="-lgcc_s -lutil -lrt -lpthread -lm -ldl -lc"

if [ $# -ne 1 ] || [ -z "$1" ]; then
    echo "usage: $0 PREFIX   (after 'cargo build --release')" >&2
    exit 2
fi

root=$(cd "$(dirname "$0")/.." && pwd)
libdir=${COLLIDE_LIBDIR:-$root/target/release}
native_libs=${NATIVE_LIBS:-$DEFAULT_NATIVE_LIBS}

for file in "$libdir/libcollide.a" "$libdir/libcollide.so" "$root/include/collide.h"; do
    if [ ! -f "$file" ]; then
        echo "error: $file is missing: run 'cargo build --release' first (or set COLLIDE_LIBDIR)" >&2
        exit 1
    fi
done

mkdir -p "$1"
prefix=$(cd "$1" && pwd)

# The version the header was generated with (Cargo.toml's).
version=$(sed -n 's/^#define PHYS_VERSION_STRING "\(.*\)"$/\1/p' "$root/include/collide.h")
if [ -z "$version" ]; then
    echo "error: no PHYS_VERSION_STRING in $root/include/collide.h" >&2
    exit 1
fi

# The pointer size the library was built for: its ELF class (byte 4: 1 for
# 32-bit, 2 for 64-bit).
case $(od -An -tu1 -j4 -N1 "$libdir/libcollide.so" | tr -d ' ') in
    1) pointer_bytes=4 ;;
    2) pointer_bytes=8 ;;
    *) echo "error: $libdir/libcollide.so is not an ELF library" >&2; exit 1 ;;
esac

# The native libraries as a CMake list: -lm becomes m, anything else stays.
cmake_native_libs=
for lib in $native_libs; do
    case $lib in
        -l*) item=${lib#-l} ;;
        *) item=$lib ;;
    esac
    cmake_native_libs=${cmake_native_libs:+$cmake_native_libs;}$item
done

# Escapes a value for the right-hand side of a sed s||| command.
sed_escape() {
    printf '%s' "$1" | sed -e 's/[\\|&]/\\&/g'
}

# Fills a template's @NAME@ placeholders.
configure() {
    sed -e "s|@PREFIX@|$(sed_escape "$prefix")|g" \
        -e "s|@VERSION@|$(sed_escape "$version")|g" \
        -e "s|@NATIVE_LIBS@|$(sed_escape "$native_libs")|g" \
        -e "s|@CMAKE_NATIVE_LIBS@|$(sed_escape "$cmake_native_libs")|g" \
        -e "s|@POINTER_BYTES@|$pointer_bytes|g" \
        -e "s|@SONAME@|$(sed_escape "$soname")|g" \
        "$1" >"$2"
}

major=${version%%.*}
soname=libcollide.so.$major

mkdir -p "$prefix/include" "$prefix/lib/pkgconfig" "$prefix/lib/cmake/collide"
cp "$root/include/collide.h" "$root/bindings/cpp/collide.hpp" "$prefix/include/"
cp "$libdir/libcollide.a" "$prefix/lib/"
cp "$libdir/libcollide.so" "$prefix/lib/libcollide.so.$version"
ln -sf "libcollide.so.$version" "$prefix/lib/$soname"
ln -sf "$soname" "$prefix/lib/libcollide.so"
chmod 644 "$prefix/include/collide.h" "$prefix/include/collide.hpp" "$prefix/lib/libcollide.a"
chmod 755 "$prefix/lib/libcollide.so.$version"
configure "$root/packaging/collide.pc.in" "$prefix/lib/pkgconfig/collide.pc"
configure "$root/packaging/collideConfig.cmake.in" "$prefix/lib/cmake/collide/collideConfig.cmake"
configure "$root/packaging/collideConfigVersion.cmake.in" "$prefix/lib/cmake/collide/collideConfigVersion.cmake"

echo "installed collide $version into $prefix"
