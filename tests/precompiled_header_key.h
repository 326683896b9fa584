// The test binaries' precompiled header includes this file, so its bytes are part of the key every
// compiler cache files that header under. Changing them makes every cache's copy a miss: the way
// out when a cache holds a precompiled header built from older headers than its key says (See Note
// [ccache keys a precompiled header by its headers' bytes] in tools/build_env.sh). It declares
// nothing.
//
// Key 2 (2026-11-29): caches filled before depend mode held the test binaries' precompiled header
// built before an edit of a comment in dispatcher/kernel_context.h, under the edited file's key.
#pragma once
