// zlib: raw deflate (inflateInit2_ with negative window bits) and crc32, for the
// entries of zip archives.
#include <zlib.h>
