// What keeps libswitchyard_optimized.so in a program that links switchyard::optimized (or
// switchyard::switchyard, which brings it) but calls none of its functions by name.
//
// Note [Linking the optimized library keeps it loaded]
// The optimized kernels register themselves when libswitchyard_optimized.so is loaded, and a
// program usually calls none of its functions: it calls operators, through the dispatcher. A
// linker told --as-needed (the default of some distributions' compilers, and common in projects)
// records a shared library only when a regular object file refers to one of its symbols, so it
// would drop the library and with it every optimized kernel, silently. So switchyard::optimized
// also links, whole-archive, a one-object static library (library_reference.cpp) whose static
// initializer calls keepOptimizedLibraryLoaded(), defined in the shared library: a reference from
// a regular object, kept even by --gc-sections (the initializer is a root), with GNU ld, gold and
// lld. The call does nothing. Linking the static object into several of a process's shared
// objects is harmless: it defines no global symbol.
#pragma once

namespace sy::optimized {

// Does nothing; referring to it keeps the optimized library (See Note [Linking the optimized
// library keeps it loaded]).
void keepOptimizedLibraryLoaded();

}  // namespace sy::optimized
