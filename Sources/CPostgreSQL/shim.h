// libpq's header, for its types and declarations: on the search path (Fedora, or a -Xcc -I given to the build), under
// it (Debian and Ubuntu: postgresql/), or where Homebrew keeps its keg-only libpq.
#if __has_include(<libpq-fe.h>)
#include <libpq-fe.h>
#elif __has_include(<postgresql/libpq-fe.h>)
#include <postgresql/libpq-fe.h>
#elif __has_include("/opt/homebrew/opt/libpq/include/libpq-fe.h")
#include "/opt/homebrew/opt/libpq/include/libpq-fe.h"
#elif __has_include("/usr/local/opt/libpq/include/libpq-fe.h")
#include "/usr/local/opt/libpq/include/libpq-fe.h"
#else
#error "libpq's header, libpq-fe.h, is not found: install libpq-dev (Debian, Ubuntu), libpq-devel (Fedora) or libpq (Homebrew)"
#endif
#include <dlfcn.h>
#include <stdlib.h>

// The functions of libpq that SeedKit calls.
#define SEEDKIT_LIBPQ_FUNCTIONS(X) \
    X(PQbackendPID) X(PQclear) X(PQcmdTuples) X(PQconndefaults) X(PQconnectdb) X(PQconnectdbParams) \
    X(PQconninfoFree) X(PQdescribePrepared) X(PQerrorMessage) X(PQexec) X(PQexecParams) X(PQexecPrepared) \
    X(PQfinish) X(PQfname) X(PQfreemem) X(PQftype) X(PQgetCopyData) X(PQgetResult) X(PQgetisnull) \
    X(PQgetlength) X(PQgetvalue) X(PQhost) X(PQnfields) X(PQnparams) X(PQntuples) X(PQparamtype) X(PQport) \
    X(PQprepare) X(PQputCopyData) X(PQputCopyEnd) X(PQresultErrorField) X(PQresultErrorMessage) \
    X(PQresultStatus) X(PQserverVersion) X(PQsetNoticeProcessor) X(PQstatus) X(PQtransactionStatus)

/// libpq's functions, found in the library when a program first needs them rather than linked: linked, libpq and
/// the libraries it needs (TLS, Kerberos, LDAP, …) are loaded and set up when any program using SeedKit starts.
typedef struct SeedKitLibPQ {
#define SEEDKIT_LIBPQ_FIELD(name) __typeof__(name) *_Nonnull name;
    SEEDKIT_LIBPQ_FUNCTIONS(SEEDKIT_LIBPQ_FIELD)
#undef SEEDKIT_LIBPQ_FIELD
} SeedKitLibPQ;

/// Loads libpq from `path` (a name the dynamic loader looks up, or a path): its functions, in memory that stays
/// for the process, or NULL with the loader's reason in `error`.
static inline const SeedKitLibPQ *_Nullable seedkit_libpq_load(const char *_Nonnull path, const char *_Nullable *_Nonnull error) {
    void *library = dlopen(path, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        *error = dlerror();
        return NULL;
    }
    SeedKitLibPQ *functions = malloc(sizeof(SeedKitLibPQ));
    if (functions == NULL) {
        *error = "out of memory";
        return NULL;
    }
#define SEEDKIT_LIBPQ_SYMBOL(name) \
    if ((*(void **)&functions->name = dlsym(library, #name)) == NULL) { \
        *error = dlerror(); \
        free(functions); \
        return NULL; \
    }
    SEEDKIT_LIBPQ_FUNCTIONS(SEEDKIT_LIBPQ_SYMBOL)
#undef SEEDKIT_LIBPQ_SYMBOL
    return functions;
}
