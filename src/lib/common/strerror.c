// SPDX-License-Identifier: LGPL-2.1-or-later
/* perfev_strerror(): stable, lowercase texts for the errnos we return. */
#include <errno.h>
#include <limits.h>
#include <string.h>
#include "common/internal.h"

const char *perfev_strerror(int err)
{
	if (err == INT_MIN)
		return "unknown error";
	if (err < 0)
		err = -err;
	switch (err) {
	case 0:
		return "success";
	case E2BIG:
		return "attr size not supported by the kernel";
	case EACCES:
		return "permission denied";
	case EBADF:
		return "bad file descriptor";
	case EBADMSG:
		return "malformed data";
	case EBUSY:
		return "device or resource busy";
	case EFAULT:
		return "bad address";
	case EINTR:
		return "interrupted";
	case EINVAL:
		return "invalid argument";
	case EMFILE:
		return "too many open files";
	case ENFILE:
		return "too many open files in system";
	case ENODEV:
		return "no such device";
	case ENOENT:
		return "no such event, PMU or file";
	case ENOMEM:
		return "out of memory";
	case ENOSPC:
		return "no space left for the event";
	case ENOSYS:
		return "not implemented";
	case EOPNOTSUPP:
		return "operation not supported";
	case EOVERFLOW:
		return "value too large";
	case EPERM:
		return "operation not permitted";
	case ERANGE:
		return "value out of range";
	case ESRCH:
		return "no such process";
	case ENAMETOOLONG:
		return "name too long";
	case EIO:
		return "input/output error";
	case EAGAIN:
		return "resource temporarily unavailable";
	case ENOTDIR:
		return "not a directory";
	case EEXIST:
		return "already exists";
	case ENOTTY:
		return "inappropriate ioctl for device";
	case EPIPE:
		return "broken pipe";
	case ESTALE:
		return "file is not the build that was recorded";
	}
	return "unknown error";
}
