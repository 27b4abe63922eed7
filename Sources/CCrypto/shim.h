// OpenSSL's one-shot SHA-256 context (FIPS 180-4), which uses the CPU's SHA extensions
// when present. The context API is deprecated in OpenSSL 3 in favour of EVP, but it is
// a plain value type, which keeps the Swift wrapper a copyable struct.
#define OPENSSL_SUPPRESS_DEPRECATED
#include <openssl/sha.h>
