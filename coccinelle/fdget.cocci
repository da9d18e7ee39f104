// SPDX-License-Identifier: GPL-2.0-only
/// Convert a struct file * taken with fget() and released with fput() in the
/// same function to fdget()/fdput(), when the reference provably stays
/// borrowed: held in a local variable, checked for NULL right after the get,
/// never stored, returned, address-taken or handed to a callee outside a short
/// allow-list, released exactly once on every path, not used after the put,
/// not taken in a loop, and with nothing between get and put that can change
/// the fd table (close, dup, fd_install, receive_fd, clone/CLONE_FILES, exec,
/// task work) or call through a function pointer. Everything else is
/// rejected, and report mode says why.
//
// Confidence: High
// Copyright: (C) 2026 The safer-fput project. GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: fget, fput, fdget, fdput
//
// Notes: fdget() takes no reference when the fd table is not shared, so the
// file stays valid only while this task does not change its fd table. Callees
// are judged by name only (allow-list for callees given the file, deny-list
// for the rest); what a direct callee does transitively is not analysed.

virtual patch
virtual report
virtual context

@initialize:python@
@@
import re

# Callees known to only borrow the file for the duration of the call.
ALLOW = {'file_inode', 'file_dentry', 'fput'}
# Callees that can change the fd table, spawn, or run task work.
DENY = re.compile(r'(^|_)(close_fd|close_range|filp_close|dup[0-9]?|fd_install'
                  r'|receive_fd|receive_fd_user|replace_fd|kernel_clone|copy_process'
                  r'|kernel_thread|user_mode_thread|create_io_thread|unshare_fd|unshare_files'
                  r'|call_usermodehelper|call_usermodehelper_exec|do_execve|do_execveat'
                  r'|kernel_execve|task_work_run|io_run_task_work|get_unused_fd_flags'
                  r'|anon_inode_getfd|close)($|_)')

seen = {}      # (file, line) -> None
rejected = {}  # (file, line) -> [reasons]

def key(p):
    return (p[0].file, int(p[0].line))

def see(p):
    seen.setdefault(key(p), None)

def reject(p, why):
    r = rejected.setdefault(key(p), [])
    if why not in r:
        r.append(why)

cands = set()

# finalize merges these across --jobs workers through the coccinelle module.
import coccinelle as _cocci_mod
_cocci_mod.seen = seen
_cocci_mod.rejected = rejected
_cocci_mod.cands = cands


def cand(p):
    return key(p) in cands or key(p) + ('checked',) in cands

def ok(p):
    return key(p) + ('checked',) in cands and key(p) not in rejected

// Every fget() call is a site.
@site@
position p;
@@
fget@p(...)

@script:python@
p << site.p;
@@
see(p)

// The one shape we convert: a local struct file * assigned from fget(fdx),
// in a plain assignment statement or in its declaration.
@cand1@
identifier fn;
local idexpression struct file *f;
expression fdx;
position p;
@@
fn(...) { <+... f = fget@p(fdx); ...+> }

@script:python@
p << cand1.p;
@@
cands.add(key(p))

@cand2@
identifier fn, f;
expression fdx;
position p;
@@
fn(...) { ... when any
struct file *f = fget@p(fdx);
... when any
}

@script:python@
p << cand2.p;
@@
cands.add(key(p))

// The get must be followed at once by a NULL check.
@checked@
identifier f;
position p : script:python() { cand(p) };
statement S;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when != f
if (\(!f\|f == NULL\|unlikely(!f)\|unlikely(f == NULL)\)) S

@script:python@
p << checked.p;
@@
cands.discard(key(p))
cands.add(key(p) + ('checked',))

// Loop: the same get can run twice (loops and backward gotos).
@loop exists@
position p : script:python() { cand(p) };
@@
fget@p(...)
...
fget@p(...)

@script:python@
p << loop.p;
@@
reject(p, "fget() in a loop (can re-get)")

@loop2@
position p : script:python() { cand(p) };
iterator I;
@@
(
for (...;...;...) { <+... fget@p(...) ...+> }
|
while (...) { <+... fget@p(...) ...+> }
|
I(...) { <+... fget@p(...) ...+> }
)

@script:python@
p << loop2.p;
@@
reject(p, "fget() in a loop (can re-get)")

// Escapes anywhere in the function after the get.
@esc exists@
identifier f;
position p : script:python() { cand(p) };
position q;
expression E;
identifier fld;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
(
return@q f;
|
E = f@q
|
E = &f@q
|
fld(..., &f@q, ...)
|
E.fld(..., f@q, ...)
|
E->fld(..., f@q, ...)
)

@script:python@
p << esc.p;
q << esc.q;
@@
reject(p, "reference escapes (returned, stored or address taken) at line %s" % q[0].line)

// The file handed to a callee that is not on the allow-list.
@callee exists@
identifier f, g;
position p : script:python() { cand(p) };
position q;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
g@q(..., f, ...)

@script:python@
p << callee.p;
g << callee.g;
q << callee.q;
@@
if str(g) not in ALLOW:
    reject(p, "file passed to %s() at line %s (not a known borrowing callee)" % (g, q[0].line))

// Between get and put: anything that may change the fd table.
@between exists@
identifier f, g;
position p : script:python() { cand(p) };
position q;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when != fput(f)
g@q(...)

@script:python@
p << between.p;
g << between.g;
q << between.q;
@@
if DENY.search(str(g)):
    reject(p, "%s() at line %s can change the fd table" % (g, q[0].line))

@betweenc exists@
identifier f;
position p : script:python() { cand(p) };
position q;
expression E;
identifier fld;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when != fput(f)
(
E->fld@q(...)
|
E.fld@q(...)
|
CLONE_FILES@q
)

@script:python@
p << betweenc.p;
q << betweenc.q;
@@
reject(p, "indirect call or CLONE_FILES at line %s (callee unknown)" % q[0].line)

// Every path must put exactly once.
@noput exists@
identifier f;
position p : script:python() { cand(p) };
position q;
statement S;
expression E;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when != f
if (\(!f\|f == NULL\|unlikely(!f)\|unlikely(f == NULL)\)) S
... when != fput(f)
    when != f = E
return@q ...;

@script:python@
p << noput.p;
q << noput.q;
@@
reject(p, "the path to the return at line %s has no fput()" % q[0].line)

@noput2 exists@
identifier fn, f;
position p : script:python() { cand(p) };
statement S;
@@
fn(...) {
... when any
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when != f
if (\(!f\|f == NULL\|unlikely(!f)\|unlikely(f == NULL)\)) S
... when != fput(f)
    when != return ...;
}

@script:python@
p << noput2.p;
@@
reject(p, "a path reaches the end of the function without fput()")

@twice exists@
identifier f;
position p : script:python() { cand(p) };
position q;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
fput(f);
...
fput@q(f);

@script:python@
p << twice.p;
q << twice.q;
@@
reject(p, "a path puts twice (line %s)" % q[0].line)

@uap exists@
identifier f;
position p : script:python() { cand(p) };
position q;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
fput(f);
...
f@q

@script:python@
p << uap.p;
q << uap.q;
@@
reject(p, "file used after fput() at line %s" % q[0].line)

@reassigned exists@
identifier f;
position p : script:python() { cand(p) };
position q;
expression E;
@@
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
f@q = E

@script:python@
p << reassigned.p;
q << reassigned.q;
@@
reject(p, "variable reassigned at line %s" % q[0].line)

// The struct fd is called "f": that name must be free in the function.
@range@
identifier fn, f;
position p : script:python() { cand(p) };
position s, e;
@@
fn@s(...) { ... when any
(
f = fget@p(...);
|
struct file *f = fget@p(...);
)
... when any
}@e

@script:python@
p << range.p;
s << range.s;
e << range.e;
f << range.f;
@@
import linecache
body = ''.join(linecache.getline(s[0].file, n)
               for n in range(int(s[0].line), int(e[0].line) + 1))
if str(f) != 'f' and re.search(r'\bf\b', body):
    reject(p, "the name f is already used in %s()" % p[0].current_element)
elif str(f) == 'f' and re.search(r'\bf\.|struct fd\b', body):
    reject(p, "the name f is already used in %s()" % p[0].current_element)
if len(re.findall(r'\b%s\s*=\s*fget\s*\(' % re.escape(str(f)), body)) != 1:
    reject(p, "more than one fget() into %s in %s()" % (f, p[0].current_element))

// ---------------------------------------------------------------- report
@finalize:python depends on report@
seen_l << merge.seen;
rejected_l << merge.rejected;
cands_l << merge.cands;
@@
# With --jobs each worker has its own state: merge it.
seen, rejected, cands = {}, {}, set()
for d in seen_l:
    seen.update(d)
for d in rejected_l:
    rejected.update(d)
for c in cands_l:
    cands |= c
for k in sorted(seen):
    if k in rejected:
        print("%s:%d: rejected: %s" % (k[0], k[1], "; ".join(rejected[k])))
    elif k in cands:
        print("%s:%d: rejected: no NULL check right after fget()" % k)
    elif k + ('checked',) in cands:
        print("%s:%d: converted" % k)
    else:
        print("%s:%d: rejected: result not held in a local struct file * variable" % k)

// ---------------------------------------------------------------- convert
@okp depends on patch@
identifier fn;
local idexpression struct file *f;
expression fdx;
position p : script:python() { ok(p) };
@@
fn(...) { <+... f = fget@p(fdx) ...+> }

@okd depends on patch@
identifier fn, f;
expression fdx;
position p : script:python() { ok(p) };
@@
fn(...) { ... when any
struct file *f = fget@p(fdx);
... when any
}

@script:python mk1@
fn << okp.fn;
f << okp.f;
fid;
nf;
@@
coccinelle.fid = cocci.make_ident(str(f))
coccinelle.nf = cocci.make_ident("f")

@script:python mk2@
fn << okd.fn;
f << okd.f;
fid;
nf;
@@
coccinelle.fid = cocci.make_ident(str(f))
coccinelle.nf = cocci.make_ident("f")

@ren1@
identifier okp.fn, mk1.fid, mk1.nf;
@@
fn(...) { <...
- fid
+ nf.file
...> }

@ren2@
identifier okd.fn, mk2.fid, mk2.nf;
@@
fn(...) { <...
- fid
+ nf.file
...> }

@fix1@
identifier okp.fn, mk1.fid, mk1.nf;
expression fdx;
@@
fn(...) { <...
(
- nf.file = fget(fdx)
+ nf = fdget(fdx)
|
- fput(nf.file)
+ fdput(nf)
)
...> }

@fix2@
identifier okd.fn, mk2.fid, mk2.nf;
@@
fn(...) { <...
- fput(nf.file)
+ fdput(nf)
...> }

@decl1@
identifier okp.fn, mk1.fid, mk1.nf;
@@
fn(...) { ... when any
- struct file *fid;
+ struct fd nf;
... when any
}

@decl2@
identifier okd.fn, mk2.fid, mk2.nf;
expression fdx;
@@
fn(...) { ... when any
- struct file *fid = fget(fdx);
+ struct fd nf = fdget(fdx);
... when any
}
