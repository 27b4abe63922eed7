// libxml2's SAX2 push parser. Its ICU support is left out of the declarations:
// libxml2's encoding header would otherwise include the system's ICU headers, whose
// enums clash with the ICU that Foundation bundles. Only pointers to the encoding
// handler (the one structure that changes) are ever used here.
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/parser.h>
#include <libxml/SAX2.h>
#include <libxml/xmlerror.h>
