// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * capstone loaded on first use (see capstone.h): the library of the major
 * version perfev was built against, its version checked, since cs_insn's
 * layout changes between majors.
 */
#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include "symbols/capstone.h"

#define STR_(x)		#x
#define STR(x)		STR_(x)
#define CAPSTONE_SONAME "libcapstone.so." STR(CS_API_MAJOR)

static struct perfev__capstone cs;
static int cs_err_no; /* 0 once loaded */
static pthread_once_t cs_once = PTHREAD_ONCE_INIT;

static void cs_load(void)
{
	unsigned int (*version)(int *major, int *minor);
	void *h = dlopen(CAPSTONE_SONAME, RTLD_NOW | RTLD_LOCAL);
	int major = -1, minor;

	cs_err_no = ENOENT;
	if (!h)
		return;
	*(void **)&version = dlsym(h, "cs_version");
	*(void **)&cs.open = dlsym(h, "cs_open");
	*(void **)&cs.option = dlsym(h, "cs_option");
	*(void **)&cs.malloc = dlsym(h, "cs_malloc");
	*(void **)&cs.disasm_iter = dlsym(h, "cs_disasm_iter");
	*(void **)&cs.free = dlsym(h, "cs_free");
	*(void **)&cs.close = dlsym(h, "cs_close");
	if (version)
		version(&major, &minor);
	if (major != CS_API_MAJOR || !cs.open || !cs.option || !cs.malloc || !cs.disasm_iter ||
	    !cs.free || !cs.close) {
		cs_err_no = ENOTSUP;
		dlclose(h);
		return;
	}
	cs_err_no = 0;
}

const struct perfev__capstone *perfev__capstone(void)
{
	pthread_once(&cs_once, cs_load);
	if (cs_err_no) {
		errno = cs_err_no;
		return NULL;
	}
	return &cs;
}
