// libpq's header. pkg-config adds its directory (Debian: /usr/include/postgresql) to the search path; where
// pkg-config is missing (Debian's libpq-dev doesn't depend on it), the header is found by its path under it.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#else
#include <postgresql/libpq-fe.h>
#endif
