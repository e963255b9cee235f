"""A Swift client that keeps its connections and its token.

Upstream's client wrapper makes a new ``swiftclient.Connection`` (with
its own ``requests`` session) for every request: a new TCP connection
and about a millisecond of client CPU each time. ``swift.delay`` makes
several requests a claim, several at once, so ``Client`` sends the
requests it knows with ``http.client`` over kept-alive connections
(a pool shared by the driver's threads), with the Keystone token of
upstream's wrapper, and hands every other call to that wrapper.

It answers as ``swiftclient.Connection`` does: lower-case response
headers, ``ClientException`` with ``http_status`` for an error status,
and swiftclient's retries (a connection error or a 5xx is tried again
after 1, 2, 4, 8 and 16 s; a 401 once, with a new token). A kept
connection that the server closed meanwhile is replaced at once.
"""

import http.client
import json
import ssl
import threading
import time
import urllib.parse

import swiftclient

RETRIES = 5             # as swiftclient.Connection's defaults
STARTING_BACKOFF = 1
MAX_BACKOFF = 64
IDLE_CONNECTIONS = 32   # kept-alive connections a client keeps at most
TIMEOUT = 60            # seconds a request may wait on a socket


def _quote(value):
    return urllib.parse.quote(value.encode('utf-8') if isinstance(
        value, str) else value, safe='/')


class Client:
    """Requests to one Swift account through kept-alive connections.

    ``wrapper`` is upstream's client wrapper (``upstream.ClientWrapper``):
    its Keystone session and object-store endpoint are used, and every
    method this class does not define is its.
    """

    def __init__(self, wrapper, insecure=False):
        self._wrapper = wrapper
        self._insecure = insecure
        self._idle = []
        self._lock = threading.Lock()
        self._endpoint = None

    def __getattr__(self, name):
        return getattr(self._wrapper, name)

    # -- objects -------------------------------------------------------

    def get_object(self, container, obj, headers=None, query_string=None,
                   resp_chunk_size=None, response_dict=None):
        if resp_chunk_size is not None or response_dict is not None:
            return self._wrapper.get_object(
                container, obj, headers=headers, query_string=query_string,
                resp_chunk_size=resp_chunk_size, response_dict=response_dict)
        _, found, body = self._call('GET', 'Object GET', container, obj,
                                    query=query_string, headers=headers)
        return found, body

    def head_object(self, container, obj, headers=None, query_string=None):
        return self._call('HEAD', 'Object HEAD', container, obj,
                          query=query_string, headers=headers)[1]

    def put_object(self, container, obj, contents, content_length=None,
                   etag=None, chunk_size=None, content_type=None,
                   headers=None, query_string=None, response_dict=None):
        if hasattr(contents, 'read') or response_dict is not None:
            return self._wrapper.put_object(
                container, obj, contents, content_length=content_length,
                etag=etag, chunk_size=chunk_size, content_type=content_type,
                headers=headers, query_string=query_string,
                response_dict=response_dict)
        headers = dict(headers or {})
        if isinstance(contents, str):
            contents = contents.encode('utf-8')
        contents = contents or b''
        headers['Content-Length'] = str(len(contents))
        if etag:
            headers['ETag'] = etag.strip('"')
        if content_type is not None:
            headers['Content-Type'] = content_type
        _, found, _ = self._call('PUT', 'Object PUT', container, obj,
                                 query=query_string, headers=headers,
                                 body=contents)
        return found.get('etag', '').strip('"')

    def post_object(self, container, obj, headers, response_dict=None):
        if response_dict is not None:
            return self._wrapper.post_object(container, obj, headers,
                                             response_dict=response_dict)
        self._call('POST', 'Object POST', container, obj, headers=headers)

    def delete_object(self, container, obj, query_string=None,
                      response_dict=None, headers=None):
        if response_dict is not None:
            return self._wrapper.delete_object(
                container, obj, query_string=query_string,
                response_dict=response_dict, headers=headers)
        self._call('DELETE', 'Object DELETE', container, obj,
                   query=query_string, headers=headers)

    # -- containers ----------------------------------------------------

    def get_container(self, container, marker=None, limit=None, prefix=None,
                      delimiter=None, end_marker=None, version_marker=None,
                      path=None, full_listing=False, headers=None,
                      query_string=None):
        if version_marker is not None:
            return self._wrapper.get_container(
                container, marker, limit, prefix, delimiter, end_marker,
                version_marker, path, full_listing=full_listing,
                headers=headers, query_string=query_string)
        if full_listing:
            found, listing = self.get_container(
                container, marker, limit, prefix, delimiter, end_marker,
                path=path, headers=headers, query_string=query_string)
            page = listing
            while page:
                last = page[-1]
                page = self.get_container(
                    container, last.get('name', last.get('subdir')),
                    limit, prefix, delimiter, end_marker, path=path,
                    headers=headers, query_string=query_string)[1]
                listing.extend(page)
            return found, listing
        query = 'format=json'
        for key, value in (('marker', marker), ('prefix', prefix),
                           ('delimiter', delimiter),
                           ('end_marker', end_marker), ('path', path)):
            if value:
                query += '&%s=%s' % (key, _quote(value))
        if limit:
            query += '&limit=%d' % limit
        if query_string:
            query += '&' + query_string.lstrip('?')
        status, found, body = self._call('GET', 'Container GET', container,
                                         query=query, headers=headers)
        return found, json.loads(body) if status != 204 and body else []

    def head_container(self, container, headers=None):
        return self._call('HEAD', 'Container HEAD', container,
                          headers=headers)[1]

    def put_container(self, container, headers=None, response_dict=None,
                      query_string=None):
        if response_dict is not None:
            return self._wrapper.put_container(
                container, headers=headers, response_dict=response_dict,
                query_string=query_string)
        self._call('PUT', 'Container PUT', container, query=query_string,
                   headers=headers)

    def delete_container(self, container, response_dict=None,
                         query_string=None, headers=None):
        if response_dict is not None:
            return self._wrapper.delete_container(
                container, response_dict=response_dict,
                query_string=query_string, headers=headers)
        self._call('DELETE', 'Container DELETE', container,
                   query=query_string, headers=headers)

    # -- requests ------------------------------------------------------

    def _call(self, method, what, container, obj=None, query=None,
              headers=None, body=None):
        """(status, lower-case headers, body) of a 2xx answer, with
        swiftclient's retries; ClientException for any other."""
        backoff, attempts, retried_auth = STARTING_BACKOFF, 0, False
        while True:
            attempts += 1
            try:
                return self._once(method, what, container, obj, query,
                                  headers, body)
            except swiftclient.ClientException as exc:
                if exc.http_status == 401 and not retried_auth:
                    retried_auth = True
                    self._wrapper.session.invalidate()
                    continue
                if (attempts > RETRIES
                        or not 500 <= (exc.http_status or 0) <= 599):
                    raise
            except (OSError, http.client.HTTPException):
                if attempts > RETRIES:
                    raise
            time.sleep(backoff)
            backoff = min(backoff * 2, MAX_BACKOFF)

    def _once(self, method, what, container, obj, query, headers, body):
        endpoint = self._endpoint_parts()
        path = '%s/%s' % (endpoint.path.rstrip('/'), _quote(container))
        if obj is not None:
            path += '/' + _quote(obj)
        if query:
            path += '?' + query
        sent = dict(headers or {})
        sent['X-Auth-Token'] = self._wrapper.session.get_token()
        if body is None and method in ('PUT', 'POST'):
            sent.setdefault('Content-Length', '0')
        status, reason, found, content = self._exchange(
            endpoint, method, path, sent, body)
        if 200 <= status < 300:
            return status, found, content
        raise swiftclient.ClientException(
            '%s failed' % what, http_scheme=endpoint.scheme,
            http_host=endpoint.hostname, http_port=endpoint.port,
            http_path=path.partition('?')[0], http_query=query or '',
            http_status=status, http_reason=reason,
            http_response_content=content, http_response_headers=found)

    def _exchange(self, endpoint, method, path, headers, body):
        """One request on a kept connection; a kept one that fails before
        any answer (the server closed it while idle) is dropped and the
        request sent once on a new one."""
        conn, kept = self._connection(endpoint)
        try:
            conn.request(method, path, body=body, headers=headers)
            response = conn.getresponse()
            content = response.read()
        except (OSError, http.client.HTTPException):
            conn.close()
            if not kept:
                raise
            return self._exchange(endpoint, method, path, headers, body)
        found = {key.lower(): value for key, value in response.getheaders()}
        if response.will_close:
            conn.close()
        else:
            with self._lock:
                if len(self._idle) < IDLE_CONNECTIONS:
                    self._idle.append(conn)
                    conn = None
            if conn is not None:
                conn.close()
        return response.status, response.reason, found, content

    def _connection(self, endpoint):
        """(a connection, whether it was kept from an earlier request)."""
        with self._lock:
            if self._idle:
                return self._idle.pop(), True
        port = endpoint.port
        if endpoint.scheme == 'https':
            context = ssl.create_default_context()
            if self._insecure:
                context.check_hostname = False
                context.verify_mode = ssl.CERT_NONE
            return http.client.HTTPSConnection(
                endpoint.hostname, port, timeout=TIMEOUT,
                context=context), False
        return http.client.HTTPConnection(endpoint.hostname, port,
                                          timeout=TIMEOUT), False

    def _endpoint_parts(self):
        if self._endpoint is None:
            with self._lock:
                if self._wrapper.endpoint is None:
                    # The wrapper authenticates when a method is first
                    # looked up on it; this sends no request to Swift.
                    self._wrapper.get_capabilities
                self._endpoint = urllib.parse.urlparse(
                    self._wrapper.endpoint)
        return self._endpoint
