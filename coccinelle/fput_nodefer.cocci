// SPDX-License-Identifier: GPL-2.0-only
/// Use fput_nodefer() instead of fput() where no lock can be held: in a
/// system call body (SYSCALL_DEFINEn, COMPAT_SYSCALL_DEFINEn), or in a static
/// do_*()/ksys_*() helper whose only callers are such bodies in the same file
/// and whose address is never taken; with no lock of data/locks taken and
/// not released on a path to the put, and no call before the put of a
/// function that may return with a lock held (summaries.cocci computes which
/// from the tree: a wrapper that takes a lock under any name is one), in the
/// function or at the call site in the caller; and nothing after the put
/// that could still reach an object the final put may free (no call, no
/// dereference). An indirect call, or a callee with no body in the tree,
/// before the put is unknown and rejects. Report mode says why.
//
// Confidence: Moderate
// Copyright: (C) 2026 The safer-fput project. GPL-2.0-only.
// Options: --no-includes --include-headers
// Keywords: fput, fput_nodefer, __fput_sync
//
// Notes: needs SAFER_FPUT_SUMMARIES (coccinelle/summaries.sh) and
// SAFER_FPUT_DATA. Locks lockdep cannot see (semaphores, page and bit
// locks) are in data/locks too. The summaries follow lock wrappers for a
// bounded number of rounds and do not see through macros; fput_nodefer()
// lockdep-asserts that no lock is held, so a miss is caught at run time on
// a lockdep kernel, not silently accepted.

virtual patch
virtual report
virtual context

@initialize:python@
@@
import re
import linecache

import json
import os

_sp = os.environ.get('SAFER_FPUT_SUMMARIES')
if not _sp or not os.path.exists(_sp):
    raise SystemExit('fput_nodefer.cocci: SAFER_FPUT_SUMMARIES must name the '
                     'summaries.json of coccinelle/summaries.sh')
_data = os.environ.get('SAFER_FPUT_DATA')
if not _data or not os.path.isdir(_data):
    raise SystemExit('fput_nodefer.cocci: SAFER_FPUT_DATA must name coccinelle/data')
with open(_sp) as _fh:
    SUMS = json.load(_fh)
DEFS = SUMS['defs']
MACROS = set(SUMS.get('macros', ()))
LOCKS = {}
with open(os.path.join(_data, 'locks')) as _fh:
    for _line in _fh:
        _w = _line.partition(chr(35))[0].split()
        if _w:
            LOCKS[_w[0]] = set(_w[1:])
RELEASES = set().union(*LOCKS.values())


def norm(fl):
    return fl[2:] if fl.startswith('./') else fl


def locked_why(fl, g):
    """Why a call of g from file fl may leave a lock held, or None."""
    g = str(g)
    if g in LOCKS:
        return 'takes a lock'
    if g in RELEASES or g in ('fput', 'fget', 'fput_nodefer'):
        return None
    k = '%s:%s' % (norm(fl), g)
    if k not in DEFS:
        k = g if g in DEFS else None
    if k is None:
        if g in MACROS or g.startswith('__builtin_'):
            return None
        return 'unknown: no body in the tree'
    st = SUMS['locked'].get(k, ['bad', 'unknown: no summary'])
    if st[0] == 'ok':
        return None
    if st[0] == 'pending':
        return 'unknown: not summarised'
    return st[1]
SYSCALL = re.compile(r'^\s*(COMPAT_)?SYSCALL_DEFINE[0-6]\s*\(')

seen = set()
ctxok = set()   # sites whose syscall-level context was established
rejected = {}
funcs = {}      # name -> {'syscall': bool, 'static': bool}
calls = {}      # callee -> list of (caller, lock_before)
addr = set()    # functions whose address is taken
callpos = {}    # (file, helper) -> call positions seen

# finalize merges these across --jobs workers through the coccinelle module.
import coccinelle as _cocci_mod
_cocci_mod.seen = seen
_cocci_mod.rejected = rejected
_cocci_mod.ctxok = ctxok

def key(p):
    return (p[0].file, int(p[0].line))

def reject(p, why):
    r = rejected.setdefault(key(p), [])
    if why not in r:
        r.append(why)

def is_syscall(s):
    return bool(SYSCALL.match(linecache.getline(s[0].file, int(s[0].line))))

def context_ok(fl, fn):
    """Why fn (in file fl) is not syscall-level, or None if it is."""
    info = funcs.get((fl, fn))
    if info is None:
        return "enclosing function not understood"
    if len(info['defs']) != 1:
        return "%d functions are called %s() in this file" % (len(info['defs']), fn)
    if info['syscall']:
        return None
    if not re.match(r'(do|ksys)_', fn):
        return "not in a system call body or a do_*/ksys_* helper"
    if not info['static']:
        return "%s() is not static: callers outside this file are unknown" % fn
    if (fl, fn) in addr:
        return "the address of %s() is taken" % fn
    cs = calls.get((fl, fn), [])
    # Every textual call must be one we saw (a call the matcher missed could
    # be made with a lock held): count "fn(" outside definitions/prototypes.
    text = open(fl, encoding='utf-8', errors='replace').read()
    uses = [m for m in re.finditer(r'\b%s\s*\(' % re.escape(fn), text)
            if not re.match(r'^\S', text[text.rfind('\n', 0, m.start()) + 1:m.start()] or ' ')]
    if len(uses) != len(callpos.get((fl, fn), ())):
        return "%s() has %d calls in this file, %d understood" % (fn, len(uses), len(callpos.get((fl, fn), ())))
    if not cs:
        return "%s() has no caller in this file" % fn
    for caller, locked in cs:
        if not funcs.get((fl, caller), {}).get('syscall'):
            return "%s() is called from %s(), not a system call body" % (fn, caller)
        if locked:
            return "%s() is called from %s() after a lock-like call" % (fn, caller)
    return None

// Every fput() call is a site.
@site@
position p;
@@
fput@p(...)

@script:python@
p << site.p;
@@
seen.add(key(p))

// What kind of function each one is.
@fns depends on site@
identifier fn;
position s;
@@
fn@s(...) { ... }

@script:python@
fn << fns.fn;
s << fns.s;
@@
# Keyed by name: SYSCALL_DEFINEn(name, ...) is parsed as a function called
# name, which may also be the name of a static helper in the same file.
info = funcs.setdefault((s[0].file, str(fn)), {'syscall': False, 'static': False, 'defs': set(), 'sys': set()})
info['defs'].add(s[0].line)
if is_syscall(s):
    info['sys'].add(s[0].line)
info['syscall'] = info['defs'] == info['sys']

@sfns depends on site@
identifier fn;
type T;
position s;
@@
static T fn@s(...) { ... }

@script:python@
fn << sfns.fn;
s << sfns.s;
@@
if (s[0].file, str(fn)) in funcs:
    funcs[(s[0].file, str(fn))]['static'] = True

// Who calls the do_*/ksys_* helpers, and with a lock-like call before?
@callers depends on site exists@
identifier caller, h =~ "^(do|ksys)_";
position c;
@@
caller(...) { ... when any
h@c(...)
... when any
}

@lockedcall depends on site exists@
identifier caller, h =~ "^(do|ksys)_", L;
position callers.c;
@@
caller(...) { ... when any
L(...)
... when any
h@c(...)
... when any
}

@script:python@
caller << callers.caller;
h << callers.h;
c << callers.c;
@@
calls.setdefault((c[0].file, str(h)), [])
calls[(c[0].file, str(h))].append((str(caller), False))
callpos.setdefault((c[0].file, str(h)), set()).add((c[0].line, c[0].column))

@script:python@
caller << lockedcall.caller;
h << lockedcall.h;
c << callers.c;
L << lockedcall.L;
@@
if locked_why(c[0].file, L):
    calls.setdefault((c[0].file, str(h)), [])
    calls[(c[0].file, str(h))].append((str(caller), True))

@addrof depends on site@
identifier h =~ "^(do|ksys)_";
position q;
@@
(
h(...)
|
h@q
)

@script:python@
h << addrof.h;
q << addrof.q;
@@
addr.add((q[0].file, str(h)))

// The enclosing function must be syscall-level. A site is converted only if
// this rule positively established its context (a parse or matching failure
// leaves it rejected).
@ctx depends on site@
identifier fn;
position p;
@@
fn(...) { ... when any
fput@p(...)
... when any
}

@script:python@
fn << ctx.fn;
p << ctx.p;
@@
why = context_ok(p[0].file, str(fn))
if why:
    reject(p, why)
else:
    ctxok.add(key(p))

// A lock taken on some path before the put and not released on it ...
@locked depends on site exists@
identifier L : script:python() { str(L) in LOCKS };
identifier rr : script:python() { str(rr) in RELEASES };
position p, q;
@@
L@q(...)
... when != rr(...)
fput@p(...)

@script:python@
L << locked.L;
q << locked.q;
p << locked.p;
@@
reject(p, "%s() at line %s: the lock is held at the put" % (L, q[0].line))

// ... or a call before the put of a function that may return with one.
@callsbefore depends on site exists@
identifier g;
position p, q;
@@
g@q(...)
...
fput@p(...)

@script:python@
g << callsbefore.g;
p << callsbefore.p;
q << callsbefore.q;
@@
if str(g) not in LOCKS:
    why = locked_why(q[0].file, g)
    if why:
        reject(p, "%s() at line %s may return with a lock held: %s" % (g, q[0].line, why))

@indirectbefore depends on site exists@
expression E;
identifier fld;
local idexpression fp;
position p, q;
@@
(
E->fld@q(...)
|
E.fld@q(...)
|
 (*E)@q(...)
|
fp@q(...)
)
...
fput@p(...)

@script:python@
p << indirectbefore.p;
q << indirectbefore.q;
@@
reject(p, "unknown: indirect call at line %s before the put" % q[0].line)

// Work after the put that could still reach what the final put frees.
@after depends on site exists@
identifier g, fld;
expression E, E1;
position p, q;
@@
fput@p(...);
...
(
g@q(...)
|
E->fld@q
|
  *E@q
|
E[E1]@q
)

@script:python@
g << after.g = "";
p << after.p;
q << after.q;
@@
reject(p, "%s at line %s after the put may use what it frees"
       % ("%s()" % g if g else "a dereference", q[0].line))

// ---------------------------------------------------------------- report
@finalize:python depends on report@
seen_l << merge.seen;
rejected_l << merge.rejected;
ctxok_l << merge.ctxok;
@@
# With --jobs each worker has its own state: merge it.
seen, rejected, ctxok = set(), {}, set()
for s in seen_l:
    seen |= s
for d in rejected_l:
    rejected.update(d)
for s in ctxok_l:
    ctxok |= s
for k in sorted(seen):
    if k in rejected:
        print("%s:%d: rejected: %s" % (k[0], k[1], "; ".join(rejected[k])))
    elif k not in ctxok:
        print("%s:%d: rejected: enclosing function not analysed (parse or matching failure)" % k)
    else:
        print("%s:%d: converted" % k)

// ---------------------------------------------------------------- convert
@depends on patch && site@
expression E;
position p : script:python() { key(p) in ctxok and key(p) not in rejected };
@@
- fput@p(E)
+ fput_nodefer(E)
