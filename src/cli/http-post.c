// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * A minimal HTTP/1.1 client for perfev record --push: one POST per
 * connection ("Connection: close") over a TCP socket, plain http:// only,
 * every step bounded by a timeout (connect, send, the status line).  Only
 * the response's status line is read; its body is not needed.
 */
#include <errno.h>
#include <fcntl.h>
#include <netdb.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "http.h"

int http_url_parse(const char *url, struct http_url *u, const char **why)
{
	const char *p, *host, *end, *colon;
	size_t len;

	memset(u, 0, sizeof(*u));
	if (!strncmp(url, "https://", 8)) {
		*why = "https is not supported (perfev sends plain HTTP): give an http:// URL, "
		       "such as "
		       "a local Grafana Alloy pyroscope.receive_http or a proxy that adds TLS";
		return -EPROTONOSUPPORT;
	}
	if (strncmp(url, "http://", 7)) {
		*why = "it is not an http:// URL (http://HOST[:PORT][/PATH])";
		return -EINVAL;
	}
	host = url + 7;
	end = host + strcspn(host, "/?#");
	if (strpbrk(end, "?#")) {
		*why = "a query or fragment has no place in it: give the server's base URL";
		return -EINVAL;
	}
	/* [v6]:port, or host:port. */
	if (*host == '[') {
		p = memchr(host, ']', (size_t)(end - host));
		if (!p) {
			*why = "its IPv6 address has no closing ']'";
			return -EINVAL;
		}
		len = (size_t)(p - host - 1);
		colon = p + 1 < end && p[1] == ':' ? p + 1 : NULL;
		if (p + 1 < end && !colon) {
			*why = "':PORT' must follow the IPv6 address";
			return -EINVAL;
		}
		host++;
	} else {
		colon = memchr(host, ':', (size_t)(end - host));
		len = (size_t)((colon ? colon : end) - host);
	}
	if (!len || len >= sizeof(u->host)) {
		*why = len ? "its host name is too long" : "it names no host";
		return -EINVAL;
	}
	memcpy(u->host, host, len);
	if (colon) {
		char *e;
		long port = strtol(colon + 1, &e, 10);

		if (e != end || colon + 1 == end || port < 1 || port > 65535) {
			*why = "its port is not a number from 1 to 65535";
			return -EINVAL;
		}
		snprintf(u->port, sizeof(u->port), "%ld", port);
	} else {
		strcpy(u->port, "80");
	}
	/* The path without its trailing '/': the endpoint's name is appended to it. */
	len = strlen(end);
	while (len && end[len - 1] == '/')
		len--;
	if (len >= sizeof(u->path)) {
		*why = "its path is too long";
		return -EINVAL;
	}
	memcpy(u->path, end, len);
	return 0;
}

static long ms_left(const struct timespec *deadline)
{
	struct timespec now;
	long ms;

	clock_gettime(CLOCK_MONOTONIC, &now);
	ms = (deadline->tv_sec - now.tv_sec) * 1000 + (deadline->tv_nsec - now.tv_nsec) / 1000000;
	return ms < 0 ? 0 : ms;
}

/* Wait until @fd is ready for @events, or the deadline: 0, -ETIMEDOUT or -errno. */
static int wait_fd(int fd, short events, const struct timespec *deadline)
{
	struct pollfd pfd = {.fd = fd, .events = events};
	int n;

	do
		n = poll(&pfd, 1, (int)ms_left(deadline));
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n ? 0 : -ETIMEDOUT;
}

static int connect_to(const struct http_url *u, const struct timespec *deadline, const char **why)
{
	struct addrinfo hints = {.ai_socktype = SOCK_STREAM}, *res, *ai;
	int fd = -1, err = -ECONNREFUSED, rc;

	rc = getaddrinfo(u->host, u->port, &hints, &res);
	if (rc) {
		*why = gai_strerror(rc);
		return -EHOSTUNREACH;
	}
	for (ai = res; ai; ai = ai->ai_next) {
		socklen_t elen = sizeof(err);

		fd = socket(ai->ai_family, ai->ai_socktype | SOCK_NONBLOCK | SOCK_CLOEXEC,
			    ai->ai_protocol);
		if (fd < 0) {
			err = -errno;
			continue;
		}
		if (!connect(fd, ai->ai_addr, ai->ai_addrlen))
			break;
		err = -errno;
		if (err == -EINPROGRESS) {
			err = wait_fd(fd, POLLOUT, deadline);
			if (!err && !getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &elen))
				err = -err;
			if (!err)
				break;
		}
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	if (fd < 0)
		*why = strerror(-err);
	return fd < 0 ? err : fd;
}

static int send_all(int fd, const void *buf, size_t len, const struct timespec *deadline)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EAGAIN) {
			int err = wait_fd(fd, POLLOUT, deadline);

			if (err)
				return err;
			continue;
		}
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/* Read up to the end of the status line: the status code, or -errno. */
static int read_status(int fd, const struct timespec *deadline)
{
	char buf[512];
	size_t have = 0;
	int code;

	while (have < sizeof(buf) - 1 && !memchr(buf, '\n', have)) {
		ssize_t n = recv(fd, buf + have, sizeof(buf) - 1 - have, 0);

		if (n < 0 && (errno == EAGAIN || errno == EINTR)) {
			int err = wait_fd(fd, POLLIN, deadline);

			if (err)
				return err;
			continue;
		}
		if (n < 0)
			return -errno;
		if (!n)
			break;
		have += (size_t)n;
	}
	buf[have] = 0;
	if (sscanf(buf, "HTTP/1.%*d %3d", &code) != 1 || code < 100)
		return -EBADMSG;
	return code;
}

int http_post(const struct http_url *u, const char *target, const char *content_type,
	      const void *body, size_t len, int timeout_ms, const char **why)
{
	struct timespec deadline;
	char *head;
	int fd, n, err;

	*why = NULL;
	clock_gettime(CLOCK_MONOTONIC, &deadline);
	deadline.tv_sec += timeout_ms / 1000;
	deadline.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
	if (deadline.tv_nsec >= 1000000000) {
		deadline.tv_sec++;
		deadline.tv_nsec -= 1000000000;
	}
	n = asprintf(&head,
		     "POST %s%s HTTP/1.1\r\nHost: %s%s%s:%s\r\nUser-Agent: perfev\r\n"
		     "Content-Type: %s\r\nContent-Length: %zu\r\nConnection: close\r\n\r\n",
		     u->path, target, strchr(u->host, ':') ? "[" : "", u->host,
		     strchr(u->host, ':') ? "]" : "", u->port, content_type, len);
	if (n < 0)
		return -ENOMEM;
	fd = connect_to(u, &deadline, why);
	if (fd < 0) {
		free(head);
		return fd;
	}
	err = send_all(fd, head, (size_t)n, &deadline);
	if (!err)
		err = send_all(fd, body, len, &deadline);
	/* A server may answer (413, 400) and close before it has read all. */
	if (!err || err == -EPIPE || err == -ECONNRESET) {
		int code = read_status(fd, &deadline);

		if (code > 0 || !err)
			err = code;
	}
	free(head);
	close(fd);
	if (err < 0 && !*why)
		*why = err == -ETIMEDOUT ? "no answer in time"
		       : err == -EBADMSG ? "the answer is not HTTP"
					 : strerror(-err);
	return err;
}
