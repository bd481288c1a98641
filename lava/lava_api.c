// SPDX-License-Identifier: GPL-2.0-only
/*
 * A LAVA server's REST API (v0.2) through libcurl: GET and POST with
 * "Authorization: Token ...". The token is read from a file or the
 * environment and stays in this process (a header, never a child's
 * argument), so no `ps` shows it. docs/nightly.md says where it comes from.
 *
 * libcurl is loaded when a client is made (dlopen), not linked: every
 * lab initramfs carries rtgate with its libraries, and libcurl would bring
 * a dozen more (TLS, HTTP/2, SSH, LDAP, Kerberos) into each guest.
 */
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>

#include "fsio.h"
#include "lava.h"
#include "log.h"

/* The libcurl calls we make, resolved once. */
static struct {
	CURLcode (*global_init)(long flags);
	CURL *(*easy_init)(void);
	void (*easy_cleanup)(CURL *c);
	void (*easy_reset)(CURL *c);
	CURLcode (*easy_setopt)(CURL *c, CURLoption opt, ...);
	CURLcode (*easy_perform)(CURL *c);
	CURLcode (*easy_getinfo)(CURL *c, CURLINFO info, ...);
	const char *(*easy_strerror)(CURLcode code);
	struct curl_slist *(*slist_append)(struct curl_slist *l,
					   const char *s);
	void (*slist_free_all)(struct curl_slist *l);
} cu;

/* POSIX's way to a function from dlsym(): through a void * lvalue. */
#define LOAD(lib, field, name) \
	(*(void **)&cu.field = dlsym(lib, name))

static int load_curl(void)
{
	static void *lib;

	if (lib)
		return 0;
	lib = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		pr_err("lava: libcurl is not installed (apt-get install "
		       "libcurl4, dnf install libcurl): %s", dlerror());
		return -ENOENT;
	}
	if (!LOAD(lib, global_init, "curl_global_init") ||
	    !LOAD(lib, easy_init, "curl_easy_init") ||
	    !LOAD(lib, easy_cleanup, "curl_easy_cleanup") ||
	    !LOAD(lib, easy_reset, "curl_easy_reset") ||
	    !LOAD(lib, easy_setopt, "curl_easy_setopt") ||
	    !LOAD(lib, easy_perform, "curl_easy_perform") ||
	    !LOAD(lib, easy_getinfo, "curl_easy_getinfo") ||
	    !LOAD(lib, easy_strerror, "curl_easy_strerror") ||
	    !LOAD(lib, slist_append, "curl_slist_append") ||
	    !LOAD(lib, slist_free_all, "curl_slist_free_all")) {
		pr_err("lava: %s is not the libcurl rtgate knows", "libcurl.so.4");
		dlclose(lib);
		lib = NULL;
		return -ENOENT;
	}
	return 0;
}


static int read_token(const char *path, char *buf, size_t len)
{
	size_t n;
	int ret = fsio_read_str(path, buf, len);

	if (ret) {
		pr_err("lava: cannot read the token file %s: %s", path,
		       strerror(-ret));
		return -EINVAL;
	}
	n = strlen(buf);
	while (n && (buf[n - 1] == '\n' || buf[n - 1] == '\r' ||
		     buf[n - 1] == ' '))
		buf[--n] = '\0';
	return 0;
}

int lava_client_init(struct lava_client *c, const char *url,
		     const char *token_file)
{
	const char *env = getenv("RTGATE_LAVA_TOKEN");
	size_t n;
	int ret;

	memset(c, 0, sizeof(*c));
	if (!url || !url[0])
		url = getenv("RTGATE_LAVA_URL");
	if (!url || !url[0]) {
		pr_err("lava: no server: give --url URL or set "
		       "$RTGATE_LAVA_URL");
		return -EINVAL;
	}
	n = strlen(url);
	snprintf(c->url, sizeof(c->url), "%s%s", url,
		 n && url[n - 1] == '/' ? "" : "/");
	if (!token_file && env && env[0]) {
		snprintf(c->token, sizeof(c->token), "%s", env);
	} else {
		if (!token_file)
			token_file = getenv("RTGATE_LAVA_TOKEN_FILE");
		if (!token_file || !token_file[0]) {
			pr_err("lava: no token: give --token-file FILE or set "
			       "$RTGATE_LAVA_TOKEN or $RTGATE_LAVA_TOKEN_FILE");
			return -EINVAL;
		}
		ret = read_token(token_file, c->token, sizeof(c->token));
		if (ret)
			return ret;
	}
	if (!c->token[0]) {
		pr_err("lava: the token is empty");
		return -EINVAL;
	}
	c->timeout_s = 60;
	ret = load_curl();
	if (ret)
		return ret;
	if (cu.global_init(CURL_GLOBAL_DEFAULT))
		return -ENOMEM;
	c->curl = cu.easy_init();
	return c->curl ? 0 : -ENOMEM;
}

void lava_client_destroy(struct lava_client *c)
{
	if (c->curl)
		cu.easy_cleanup(c->curl);
	c->curl = NULL;
	memset(c->token, 0, sizeof(c->token));
}

struct body {
	char *buf;
	size_t len, cap;
};

static size_t on_data(char *ptr, size_t size, size_t nmemb, void *arg)
{
	struct body *b = arg;
	size_t n = size * nmemb;
	char *p;

	if (b->len + n + 1 > b->cap) {
		size_t cap = (b->len + n + 1) * 2;

		p = realloc(b->buf, cap);
		if (!p)
			return 0;
		b->buf = p;
		b->cap = cap;
	}
	memcpy(b->buf + b->len, ptr, n);
	b->len += n;
	b->buf[b->len] = '\0';
	return n;
}

int lava_request(struct lava_client *c, const char *path,
		 const char *json, char **body, size_t *len)
{
	struct curl_slist *hdr = NULL, *h;
	struct body b = { 0 };
	char url[1024], auth[300];
	CURLcode rc;
	long code = 0;

	snprintf(url, sizeof(url), "%sapi/v0.2/%s", c->url, path);
	snprintf(auth, sizeof(auth), "Authorization: Token %s", c->token);
	hdr = cu.slist_append(hdr, auth);
	h = hdr ? cu.slist_append(hdr, "Accept: application/json, "
				    "application/yaml") : NULL;
	if (h && json)
		h = cu.slist_append(h, "Content-Type: application/json");
	memset(auth, 0, sizeof(auth));
	if (!h) {
		cu.slist_free_all(hdr);
		return -ENOMEM;
	}
	cu.easy_reset(c->curl);
	cu.easy_setopt(c->curl, CURLOPT_URL, url);
	cu.easy_setopt(c->curl, CURLOPT_HTTPHEADER, hdr);
	cu.easy_setopt(c->curl, CURLOPT_WRITEFUNCTION, on_data);
	cu.easy_setopt(c->curl, CURLOPT_WRITEDATA, &b);
	cu.easy_setopt(c->curl, CURLOPT_TIMEOUT, c->timeout_s);
	cu.easy_setopt(c->curl, CURLOPT_NOSIGNAL, 1L);
	if (json)
		cu.easy_setopt(c->curl, CURLOPT_POSTFIELDS, json);
	rc = cu.easy_perform(c->curl);
	cu.slist_free_all(hdr);
	if (rc != CURLE_OK) {
		pr_err("lava: %s: %s", url, cu.easy_strerror(rc));
		free(b.buf);
		return -EIO;
	}
	cu.easy_getinfo(c->curl, CURLINFO_RESPONSE_CODE, &code);
	if (!b.buf)
		b.buf = calloc(1, 1);
	if (!b.buf)
		return -ENOMEM;
	*body = b.buf;
	if (len)
		*len = b.len;
	return (int)code;
}
