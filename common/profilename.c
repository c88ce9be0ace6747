#include "profilename.h"

#include <string.h>

bool profile_name_valid(const char *name)
{
	size_t n = strlen(name);
	if (n == 0 || n > PROFILE_NAME_MAX || name[0] == '.') {
		return false;
	}
	for (size_t i = 0; i < n; i++) {
		char c = name[i];
		bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
			  (c >= '0' && c <= '9') || c == '.' || c == '_' || c == '-';
		if (!ok) {
			return false;
		}
	}
	return true;
}
