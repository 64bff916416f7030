/* SPDX-License-Identifier: LGPL-2.1-or-later */
/* A minimal HTTP/1.1 client: plain http://, one bounded POST per connection (http-post.c). */
#ifndef PERFEV_CLI_HTTP_H
#define PERFEV_CLI_HTTP_H

#include <stddef.h>

struct http_url {
	char host[256]; /* a name or an address (IPv6 without its brackets) */
	char port[8];
	char path[1024]; /* "" or "/prefix", without a trailing '/' */
};

/*
 * Split http://HOST[:PORT][/PATH] into @u.  Returns 0, -EPROTONOSUPPORT
 * (https) or -EINVAL, with *@why saying what is wrong.
 */
int http_url_parse(const char *url, struct http_url *u, const char **why);

/*
 * POST @len bytes of @body as @content_type to @u's path + @target
 * ("/ingest?..."), all of it within @timeout_ms.  Returns the response's
 * status code, or -errno (-ETIMEDOUT, -ECONNREFUSED, -EHOSTUNREACH,
 * -EBADMSG for an answer that is not HTTP) with *@why its cause in words.
 */
int http_post(const struct http_url *u, const char *target, const char *content_type,
	      const void *body, size_t len, int timeout_ms, const char **why);

#endif /* PERFEV_CLI_HTTP_H */
