// The C library's allocator controls (`mallopt`), which glibc declares in <malloc.h>, a header the Glibc module
// leaves out. Empty on other systems.
#if defined(__linux__) && __has_include(<malloc.h>)
#include <malloc.h>
#endif
