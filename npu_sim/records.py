"""Compact storage for per-kernel records and span args: typed columns, interned names.

(Over 300 lines on purpose: the dict columns, the span columns and the spool they
both spill to are one storage format, read and written together.)

Why: a dict per kernel (``Device.kernel_records``) plus its trace args cost about
2 KB of host memory per launch even with the trace off, and 4.4 KB with pipe spans:
a long run grew without a bound (issue 16, "memory and size guards"; issue 17,
"trace memory grows without a bound"). A record is a dict of ~25 str keys whose
values are mostly floats and ints, with three small nested dicts (per pipe busy ns,
pipe ratios, per core type ns); the keys and the nesting repeat from one launch of an
op to the next.

:class:`DictColumns` stores such dicts as a *shape* (the keys in order, the type of
each leaf and the shape of each nested dict, interned: one per distinct layout) and
their leaves in typed columns: floats in an ``array('d')``, ints in an
``array('q')``, strings interned (one object per distinct string) and anything else
(None, bools, big ints) as object references, lists and tuples pickled to bytes
interned by value (so nothing stored is tracked by the garbage collector, and
equal shape lists of many launches are one object). A stored dict costs 8 bytes a
leaf plus 12 bytes of index, against ~80 bytes a leaf as a dict of boxed floats.
Every :data:`SPILL_EVERY` dicts, the full segment of columns is pickled to an
anonymous temporary file (:class:`_Spool`) and dropped from memory, so host memory
stays bounded however long the run: what remains per stored dict is nothing but
the file's bytes. Reading rebuilds an equal dict, same key order, same value types (a float stays a
float, an int an int), so ``json.dumps`` of a read is byte-identical to one of the
original. Lists and tuples read back as copies; other objects held by reference
(unpicklable lists included) are the stored objects themselves.

:class:`KernelRecords` is the sequence ``Device.kernel_records`` returns: ``len``,
indexing and slicing (dicts rebuilt on read), iteration, ``==`` against a list.
"""
from __future__ import annotations

import os
import pickle
import tempfile
from array import array
from itertools import compress
from operator import is_, itemgetter
from typing import Any, Iterator

_F, _I, _S, _O, _T, _P = 0, 1, 2, 3, 4, 5   # leaf tags: float, int (64-bit), interned str, object,
#                                             static (from the static dict), pickled (a list or tuple)
_MISSING = object()
#: stored dicts per segment: a full segment is spilled (pickled typed columns) to an
#: anonymous temporary file, so host memory stays bounded however many are stored
SPILL_EVERY = 1 << 14
_INT_MIN, _INT_MAX = -(1 << 63), (1 << 63) - 1


class _Spool:
    """Pickled segments appended to an anonymous temporary file (in ``tempfile``'s
    folder: ``$TMPDIR``, else /tmp; removed by the OS when closed or at exit), read
    back by number with the last one read kept."""

    __slots__ = ("_file", "_segs", "_last")

    def __init__(self) -> None:
        self._file = tempfile.TemporaryFile(prefix="npu_sim_spool_")
        self._segs: list[tuple[int, int]] = []
        self._last: tuple[int, Any] | None = None

    def __len__(self) -> int:
        return len(self._segs)

    def write(self, blob: bytes) -> None:
        f = self._file
        f.seek(0, os.SEEK_END)
        self._segs.append((f.tell(), len(blob)))
        f.write(blob)

    def read(self, k: int):
        if self._last is None or self._last[0] != k:
            off, n = self._segs[k]
            self._file.flush()
            self._file.seek(off)
            self._last = (k, pickle.loads(self._file.read(n)))
        return self._last[1]

    def close(self) -> None:
        self._file.close()


def _spill(spool: _Spool | None, columns) -> _Spool | None:
    """Append ``columns`` pickled to ``spool`` (opened here when None) and return it;
    None when a leaf cannot be pickled (the caller then keeps everything in memory)."""
    try:
        blob = pickle.dumps(columns, pickle.HIGHEST_PROTOCOL)
    except Exception:  # noqa: BLE001 - correct, merely unbounded
        return None
    spool = spool if spool is not None else _Spool()
    spool.write(blob)
    return spool


class DictColumns:
    """Dicts (str keys; leaves of any type; nested dicts of the same kind) stored as
    interned shapes plus typed leaf columns. :meth:`add` returns an index,
    :meth:`get` rebuilds the dict stored at that index (a new dict each call)."""

    __slots__ = ("_shapes", "_shape_ids", "_sid", "_f", "_i", "_o", "_fo", "_io", "_oo", "_strs",
                 "_statics", "_static_ids", "_static_keys", "_st", "_pickles", "_base", "_spool", "_seg_size", "_spill_ok", "_plans",
                 "_builders", "_tails", "_pickers", "_last_plan")

    def __init__(self) -> None:
        self._shapes: list[tuple] = []              # shape id -> shape
        self._shape_ids: dict[tuple, int] = {}
        self._sid = array("i")                      # per dict: its shape id
        self._f, self._i = array("d"), array("q")   # leaf columns
        self._o: list = []
        self._fo, self._io, self._oo = array("q"), array("q"), array("q")   # per dict: its first leaf in each
        self._strs: dict[str, str] = {}
        self._pickles: dict[bytes, bytes] = {}      # lists and tuples, pickled and interned by value
        self._statics: list[dict] = [{}]            # static id -> dict (kept alive); 0: none
        self._static_ids: dict[int, int] = {}
        self._static_keys: list[tuple] = [()]       # static id -> its keys (the plans' part of it)
        self._st = array("i")                       # per dict: its static id
        self._base = 0                              # dicts spilled to the spool file (they come first)
        self._spool: _Spool | None = None           # opened at the first spill
        self._seg_size = 0
        self._spill_ok = True
        self._plans: dict = {}                      # (layout signature, static keys) -> _Plan (see _store)
        self._tails: dict = {}                      # id(tail) -> (tail, static, _parts) for add_parts
        self._last_plan = None                      # the plan _store_leaves' key maps to after its call
        self._builders: list = []                   # shape id -> its reader (_builder), made at the first read
        self._pickers: dict = {}                    # (shape id, keys, default) -> its _picker, for columns

    def __len__(self) -> int:
        return self._base + len(self._sid)

    def _columns(self) -> tuple:
        return (self._sid, self._st, self._f, self._i, self._o, self._fo, self._io, self._oo)

    def clear(self) -> None:
        """Forget every stored dict (the interned shapes stay)."""
        for col in (self._sid, self._f, self._i, self._fo, self._io, self._oo, self._st):
            del col[:]
        self._o.clear()
        if self._spool is not None:
            self._spool.close()
        self._spool, self._base, self._spill_ok = None, 0, True

    def _spill(self) -> None:
        """Move the in-memory segment to the spool file (pickled columns) and start an
        empty one. A segment holding an unpicklable leaf stops spilling (kept in memory)."""
        spool = _spill(self._spool, self._columns())
        if spool is None:
            self._spill_ok = False
            return
        self._spool = spool
        self._seg_size = self._seg_size or len(self._sid)
        self._base += len(self._sid)
        for col in (self._sid, self._f, self._i, self._fo, self._io, self._oo, self._st):
            del col[:]
        self._o.clear()

    def _segment(self, index: int) -> tuple[tuple, int]:
        """(columns, local index) of stored dict ``index`` (0 <= index < len)."""
        if index >= self._base:
            return self._columns(), index - self._base
        seg, local = divmod(index, self._seg_size)
        return self._spool.read(seg), local

    def _flatten(self, d: dict, f, i, o, static: dict | None = None) -> tuple:
        strs = self._strs
        shape = []
        miss = _MISSING
        for k, v in d.items():
            t = type(v)
            if static is not None and static.get(k, miss) is v:
                shape.append((k, _T))
            elif t is float:
                f.append(v)
                shape.append((k, _F))
            elif t is int and _INT_MIN <= v <= _INT_MAX:
                i.append(v)
                shape.append((k, _I))
            elif t is str:
                o.append(strs.setdefault(v, v))
                shape.append((k, _S))
            elif t is dict:
                shape.append((k, self._flatten(v, f, i, o)))   # nested: no static part
            elif t is list or t is tuple:
                try:
                    b = pickle.dumps(v, pickle.HIGHEST_PROTOCOL)
                except Exception:  # noqa: BLE001 - keep the object itself: correct, merely gc-tracked
                    o.append(v)
                    shape.append((k, _O))
                else:
                    o.append(self._pickles.setdefault(b, b))
                    shape.append((k, _P))
            else:
                o.append(v)
                shape.append((k, _O))
        return tuple(shape)

    def add(self, d: dict, static: dict | None = None) -> int:
        """Store ``d`` (not kept: its leaves are copied into the columns); returns its
        index. ``static``: a dict shared by many stored dicts (e.g. a kernel spec's
        trace args), kept by reference: a key of ``d`` whose value *is* ``static``'s
        value for that key costs no leaf. ``static`` must not change afterwards."""
        st = self._begin(static)
        self._sid.append(self._store(d, static or None, st))
        n = self._base + len(self._sid) - 1
        if len(self._sid) >= (self._seg_size or SPILL_EVERY) and self._spill_ok:
            self._spill()
        return n

    def _begin(self, static: dict | None) -> int:
        """Open the next stored dict's index entries (its first leaf in each column and
        its static id, registering ``static`` at its first use); returns the static id."""
        self._fo.append(len(self._f))
        self._io.append(len(self._i))
        self._oo.append(len(self._o))
        st = 0
        if static:
            st = self._static_ids.get(id(static), 0)
            if not st or self._statics[st] is not static:
                st = self._static_ids[id(static)] = len(self._statics)
                self._statics.append(static)
                self._static_keys.append(tuple(static))
        self._st.append(st)
        return st

    def add_parts(self, head: dict, tail: dict, static: dict | None = None) -> int:
        """:meth:`add` of ``{**head, **tail}`` (keys disjoint), storing the same
        columns, for a ``tail`` dict that many stored dicts share and nobody changes
        (a kernel's memoized trace args): its leaves and layout are worked out once
        per tail object (a bounded cache), so a call costs the head's few keys."""
        st = self._begin(static)
        tails = self._tails
        hit = tails.get(id(tail))
        if hit is None or hit[0] is not tail or hit[1] is not static:
            if len(tails) > 4096:
                tails.clear()
            hit = tails[id(tail)] = (tail, static, _parts(tail, static or None), {})
        hl = list(head.values())
        hk = tuple(head)
        ht = tuple(map(type, hl))
        tl, tk, tt, ts = hit[2]
        hkey = (hk, ht, st)
        cached = hit[3].get(hkey) if dict not in ht else None
        split = cached[2] if cached is not None else None
        if split:   # the tail's column values ready: only the head's leaves to store
            sid = self._replay_split(split, hl, tl, lambda: {**head, **tail}, static or None)
        elif cached is not None and (cached[1] or all(map(is_, cached[0].tget(hl + tl), cached[0].tkget(static)))):
            # cached[1]: every static leaf lies in the tail, checked when cached (neither changes)
            sid = self._replay(cached[0], hl + tl, lambda: {**head, **tail}, static or None)
            if split is None and cached[1]:   # a tail used again: split it for the next calls (False: cannot)
                hit[3][hkey] = (cached[0], True, self._split(cached[0], len(hk), tl) or False)
        else:
            leaves = hl + tl
            hl, hk, ht, hs = _parts(head, None)
            types = ht + tt
            sig = (hk + tk, types, hs + ts) if dict in types else (hk + tk, types)
            sid = self._store_leaves(lambda: {**head, **tail}, leaves, sig, static or None, st)
            plan = self._last_plan   # self._plans.get((sig, self._static_keys[st])) without hashing sig again
            if plan is not None and plan.sid == sid and len(hit[3]) < 64:
                # the layout of this head with this tail: no signature to build next time
                hit[3][hkey] = (plan, plan.tget is None or min(plan.tidx) >= len(hk), None)
        self._sid.append(sid)
        n = self._base + len(self._sid) - 1
        if len(self._sid) >= (self._seg_size or SPILL_EVERY) and self._spill_ok:
            self._spill()
        return n

    def _split(self, plan: "_Plan", nhead: int, tail_leaves: list) -> "_TailSplit | None":
        """``plan`` split where a shared tail's leaves start (leaf ``nhead``): the head's
        positions per column and the tail's column values as :meth:`_replay` stores
        them (strings interned, lists pickled and interned), worked out once; None when a
        head leaf may be pickled or a tail leaf cannot be stored that way (an int past 64
        bits, an unpicklable list): :meth:`_replay` then handles every call."""
        head_o = tuple((j, tag) for j, tag in plan.oidx if j < nhead)
        if any(tag == _P for _, tag in head_o):
            return None
        try:
            tf = array("d", [tail_leaves[j - nhead] for j in plan.fidx if j >= nhead])
            ti = array("q", [tail_leaves[j - nhead] for j in plan.iidx if j >= nhead])
            to = []
            for j, tag in plan.oidx:
                if j >= nhead:
                    v = tail_leaves[j - nhead]
                    if tag == _S:
                        v = self._strs.setdefault(v, v)
                    elif tag == _P:
                        b = pickle.dumps(v, pickle.HIGHEST_PROTOCOL)
                        v = self._pickles.setdefault(b, b)
                    to.append(v)
        except Exception:  # noqa: BLE001 - OverflowError, TypeError or a pickling error: no split
            return None
        return _TailSplit(plan, _getter([j for j in plan.fidx if j < nhead]),
                          _getter([j for j in plan.iidx if j < nhead]), head_o, tf, ti, to)

    def _replay_split(self, split: "_TailSplit", head_leaves: list, tail_leaves: list, d,
                      static: dict | None) -> int:
        """:meth:`_replay` by a :class:`_TailSplit`: the same columns, the tail's part
        copied as stored at the split. ``tail_leaves``, ``d``: for :meth:`_replay`'s
        fallbacks (a head int past 64 bits)."""
        i = self._i
        if split.hi is not None:
            n0 = len(i)
            try:
                i.extend(split.hi(head_leaves))
            except OverflowError:
                del i[n0:]
                return self._replay(split.plan, head_leaves + tail_leaves, d, static)
        i.extend(split.ti)
        f = self._f
        if split.hf is not None:
            f.extend(split.hf(head_leaves))
        f.extend(split.tf)
        o = self._o
        if split.ho:
            strs = self._strs
            for j, tag in split.ho:
                v = head_leaves[j]
                o.append(strs.setdefault(v, v) if tag == _S else v)
        o += split.to
        return split.sid

    def _sid_of(self, shape: tuple) -> int:
        sid = self._shape_ids.get(shape)
        if sid is None:
            sid = self._shape_ids[shape] = len(self._shapes)
            self._shapes.append(shape)
        return sid

    def _store(self, d: dict, static: dict | None, st: int) -> int:
        """Copy ``d``'s leaves into the columns; returns its shape id. The fast way:
        a plan per layout (the keys, the leaf types, the nesting and the static id)
        made the first time by :meth:`_flatten` and replayed with ``itemgetter``s,
        which fills the columns in the same order with the same values, so the
        stored dict is the one :meth:`_flatten` alone would store. Falls back to
        :meth:`_flatten` when a static value is no longer the same object or an int
        does not fit 64 bits."""
        leaves, sig = _leaves_sig(d, static)
        return self._store_leaves(d, leaves, sig, static, st)

    def _store_leaves(self, d, leaves: list, sig: tuple, static: dict | None, st: int) -> int:
        """:meth:`_store` given ``d``'s ``_leaves_sig``; ``d`` may be a function
        returning the dict (built only when the plan does not apply). Leaves in
        ``_last_plan`` the plan its key maps to afterwards (None: none)."""
        if not isinstance(d, dict):   # built at most once, where a fallback needs it
            make = d
            d = None
        key = (sig, self._static_keys[st])   # a plan serves every static with these keys
        plan = self._last_plan = self._plans.get(key)
        if plan is None:
            shape = self._flatten(d if d is not None else make(), self._f, self._i, self._o, static)
            sid = self._sid_of(shape)
            if len(self._plans) < 4096:
                self._plans[key] = self._last_plan = _Plan(shape, sid, static)
            return sid
        if plan.tget is not None and not all(map(is_, plan.tget(leaves), plan.tkget(static))):
            return self._sid_of(self._flatten(d if d is not None else make(), self._f, self._i, self._o, static))
        return self._replay(plan, leaves, d if d is not None else make, static)

    def _replay(self, plan: "_Plan", leaves: list, d, static: dict | None) -> int:
        """Fill the columns from ``leaves`` by ``plan`` (its static leaves already
        checked); ``d``: the dict or a function making it, for the fallbacks."""
        whole = d if isinstance(d, dict) else None
        make = d if whole is None else (lambda: whole)
        d = None
        f, i, o = self._f, self._i, self._o
        new_o = []
        if plan.oidx:
            strs, pickles = self._strs, self._pickles
            try:
                for j, tag in plan.oidx:
                    v = leaves[j]
                    if tag == _S:
                        new_o.append(strs.setdefault(v, v))
                    elif tag == _P:
                        b = pickle.dumps(v, pickle.HIGHEST_PROTOCOL)
                        new_o.append(pickles.setdefault(b, b))
                    else:
                        new_o.append(v)
            except Exception:  # noqa: BLE001 - an unpicklable list: _flatten keeps the object
                return self._sid_of(self._flatten(d if d is not None else make(), f, i, o, static))
        if plan.iget is not None:
            n0 = len(i)
            try:
                i.extend(plan.iget(leaves))
            except OverflowError:
                del i[n0:]
                return self._sid_of(self._flatten(d if d is not None else make(), f, i, o, static))
        if plan.fget is not None:
            f.extend(plan.fget(leaves))
        if new_o:
            o += new_o
        return plan.sid

    def get(self, index: int) -> dict:
        """The dict stored at ``index`` (negative counts from the end); IndexError past the end."""
        n = len(self)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError("stored dict index out of range")
        (sid, st, f, i, o, fo, io, oo), j = self._segment(index)
        k = sid[j]
        builders = self._builders
        if k >= len(builders):
            builders += [None] * (len(self._shapes) - len(builders))
        b = builders[k]
        if b is None:
            b = builders[k] = _builder(self._shapes[k])
        return b(f, i, o, fo[j], io[j], oo[j], self._statics[st[j]])

    def columns(self, keys: tuple, default=None, since: int = 0) -> list[tuple]:
        """Per stored dict from index ``since`` on, the tuple of its top-level values
        at ``keys`` (``default`` for a key it lacks), as ``tuple(d.get(k, default) for
        k in keys)`` of each :meth:`get` would give, without building the dicts: a
        reader per (layout, keys) compiled once (:func:`_picker`). ``default`` must be
        hashable (it keys that cache)."""
        out: list[tuple] = []
        n = len(self)
        j = max(since, 0)
        pickers = self._pickers
        if len(pickers) > 4096:
            pickers.clear()
        while j < n:
            (sid, st, f, i, o, fo, io, oo), lo = self._segment(j)
            hi = min(len(sid), lo + n - j)
            statics, shapes = self._statics, self._shapes
            app = out.append
            for m in range(lo, hi):
                k = sid[m]
                p = pickers.get((k, keys, default))
                if p is None:
                    p = pickers[(k, keys, default)] = _picker(shapes[k], keys, default)
                app(p(f, i, o, fo[m], io[m], oo[m], statics[st[m]]))
            j += hi - lo
        return out

    def nbytes(self) -> int:
        """Host bytes of the in-memory columns (not the interned shapes or strings, nor
        objects, nor what was spilled to the spool file)."""
        return sum(c.itemsize * len(c) for c in (self._sid, self._f, self._i, self._fo, self._io, self._oo,
                                                 self._st)) \
            + 8 * len(self._o)


def _leaves_sig(d: dict, static: dict | None) -> tuple[list, tuple]:
    """``d``'s leaves in the order :meth:`DictColumns._flatten` visits them (nested
    dicts expanded in place, except a top-level one that is ``static``'s own value),
    and its layout signature: the keys, the leaf types, the nested layouts."""
    vals = list(d.values())
    types = tuple(map(type, vals))
    keys = tuple(d)
    if dict not in types:
        return vals, (keys, types)
    leaves: list = []
    sub = []
    start = 0
    j = types.index(dict)
    while True:   # slices between the nested dicts: no per-leaf Python work
        leaves += vals[start:j]
        v = vals[j]
        if static is not None and static.get(keys[j], _MISSING) is v:
            leaves.append(v)
            sub.append(None)
        else:
            lv, sg = _leaves_sig(v, None)
            leaves += lv
            sub.append(sg)
        start = j + 1
        try:
            j = types.index(dict, start)
        except ValueError:
            break
    leaves += vals[start:]
    return leaves, (keys, types, tuple(sub))


def _parts(d: dict, static: dict | None) -> tuple[list, tuple, tuple, tuple]:
    """``d``'s ``(leaves, keys, types, nested layouts)``: the pieces of its
    :func:`_leaves_sig`, which for two dicts with disjoint keys concatenate into
    those of the merged dict."""
    leaves, sig = _leaves_sig(d, static)
    return leaves, sig[0], sig[1], sig[2] if len(sig) == 3 else ()


def _getter(idx: list):
    """A function of a list returning the tuple of its items at ``idx`` (None if empty)."""
    if not idx:
        return None
    if len(idx) == 1:
        j = idx[0]
        return lambda v: (v[j],)
    return itemgetter(*idx)


class _TailSplit:
    """A :class:`_Plan` for one shared tail (``DictColumns._split``): ``plan`` it, ``sid`` its layout,
    ``hf``/``hi`` the getters of the head's float and int leaves (None: none), ``ho`` the
    head's ``(position, tag)`` object leaves, ``tf``/``ti``/``to`` the tail's column
    values, stored after the head's in each column."""

    __slots__ = ("plan", "sid", "hf", "hi", "ho", "tf", "ti", "to")

    def __init__(self, plan, hf, hi, ho, tf, ti, to):
        self.plan, self.sid = plan, plan.sid
        self.hf, self.hi, self.ho, self.tf, self.ti, self.to = hf, hi, ho, tf, ti, to


class _Plan:
    """How one layout's leaves go to the columns (:meth:`DictColumns._store`): the
    leaf positions of each column in visiting order, and the static leaves with the
    keys of the static dict whose values they must be (``tkget(static)``: those values,
    so one plan serves every static dict with the same keys; the values are checked
    against each call's own static)."""

    __slots__ = ("sid", "fidx", "iidx", "fget", "iget", "oidx", "tget", "tidx", "tkget")

    def __init__(self, shape: tuple, sid: int, static: dict | None):
        tags: list = []
        tkeys: list = []

        def walk(sh, top):
            for k, tag in sh:
                if type(tag) is tuple:
                    walk(tag, False)
                else:
                    if tag == _T:
                        tkeys.append((len(tags), k))
                    tags.append(tag)

        walk(shape, True)
        self.sid = sid
        self.fidx = tuple(j for j, t in enumerate(tags) if t == _F)
        self.iidx = tuple(j for j, t in enumerate(tags) if t == _I)
        self.fget = _getter(list(self.fidx))
        self.iget = _getter(list(self.iidx))
        self.oidx = tuple((j, t) for j, t in enumerate(tags) if t in (_S, _P, _O))
        self.tidx = tuple(j for j, _ in tkeys)
        self.tget = _getter(list(self.tidx))
        self.tkget = _getter([k for _, k in tkeys])


def _leaf_expr(tag, pos: list) -> str:
    """The source text reading one stored (non-static) leaf of tag ``tag`` at the
    running column positions ``pos`` ([float, int, object], advanced in place): the
    shared step of :func:`_builder` and :func:`_picker`."""
    if tag == _F:
        v = f"f[a + {pos[0]}]"
        pos[0] += 1
    elif tag == _I:
        v = f"i[b + {pos[1]}]"
        pos[1] += 1
    else:
        v = f"loads(o[c + {pos[2]}])" if tag == _P else f"o[c + {pos[2]}]"
        pos[2] += 1
    return v


def _builder(shape: tuple):
    """A reader of dicts of layout ``shape``: ``fn(f, i, o, f0, i0, o0, static)`` returns
    the dict whose leaves start at ``f[f0]``, ``i[i0]``, ``o[o0]``, as :func:`_build`
    does, but made once per layout as one dict display (compiled from the shape's
    keys: a read costs one call instead of a loop per key). Falls back to
    :func:`_build` for a key that is not a str or an int."""
    pos = [0, 0, 0]

    def expr(sh) -> str | None:
        parts = []
        for k, tag in sh:
            if type(k) not in (str, int):
                return None
            if type(tag) is tuple:
                v = expr(tag)
                if v is None:
                    return None
            elif tag == _T:
                v = f"st[{k!r}]"
            else:
                v = _leaf_expr(tag, pos)
            parts.append(f"{k!r}: {v}")
        return "{" + ", ".join(parts) + "}"

    body = expr(shape)
    if body is None:
        return lambda f, i, o, a, b, c, st: _build(shape, f, i, o, [a, b, c], st)[0]
    return eval(f"lambda f, i, o, a, b, c, st: {body}", {"loads": pickle.loads})   # noqa: S307 - keys are repr'd


def _picker(shape: tuple, keys: tuple, default):
    """A reader of the top-level values at ``keys`` of dicts of layout ``shape``:
    ``fn(f, i, o, f0, i0, o0, static)`` returns the tuple :meth:`DictColumns.columns`
    gives for one stored dict, compiled once as one tuple display (as :func:`_builder`
    compiles a dict display). A key whose value is a nested dict is read through the
    full builder."""
    pos = [0, 0, 0]
    where: dict = {}

    def walk(sh, top: bool) -> None:
        for k, tag in sh:
            if type(tag) is tuple:
                if top:
                    where[k] = None
                walk(tag, False)
                continue
            v = (f"st[K[{keys.index(k)}]]" if k in keys else "") if tag == _T else _leaf_expr(tag, pos)
            if top:
                where[k] = v

    walk(shape, True)
    if any(k in where and where[k] is None for k in keys):
        full = _builder(shape)
        return lambda f, i, o, a, b, c, st: tuple(full(f, i, o, a, b, c, st).get(k, default) for k in keys)
    body = "".join(f"{where[k] if k in where else 'D'}, " for k in keys)
    return eval(f"lambda f, i, o, a, b, c, st: ({body})",   # noqa: S307 - only positions and names
                {"loads": pickle.loads, "K": keys, "D": default})


def _build(shape: tuple, f, i, o, pos: list, static: dict) -> tuple[dict, list]:
    out = {}
    for k, tag in shape:
        if type(tag) is tuple:
            out[k] = _build(tag, f, i, o, pos, static)[0]
        elif tag == _T:
            out[k] = static[k]
        elif tag == _F:
            out[k] = f[pos[0]]
            pos[0] += 1
        elif tag == _I:
            out[k] = i[pos[1]]
            pos[1] += 1
        elif tag == _P:
            out[k] = pickle.loads(o[pos[2]])
            pos[2] += 1
        else:
            out[k] = o[pos[2]]
            pos[2] += 1
    return out, pos


class KernelRecords:
    """The completed kernels of one device, oldest first, stored compactly (a
    :class:`DictColumns`). Behaves as a read-only list of dicts: ``len``, ``r[i]``,
    ``r[a:b]`` (a list), iteration, ``==`` with a list or another KernelRecords.
    Each read builds new dicts: mutating one changes nothing stored."""

    __slots__ = ("_cols",)

    def __init__(self) -> None:
        self._cols = DictColumns()

    def append(self, record: dict[str, Any], static: dict | None = None) -> None:
        """Store one kernel record (the dict itself is not kept; ``static``: see
        :meth:`DictColumns.add`)."""
        self._cols.add(record, static)

    def append_parts(self, head: dict[str, Any], tail: dict[str, Any], static: dict | None = None) -> None:
        """:meth:`append` of ``{**head, **tail}`` for a shared, unchanging ``tail``
        (``DictColumns.add_parts``): the same stored record, less work per call."""
        self._cols.add_parts(head, tail, static)

    def columns(self, keys: tuple, default=None, since: int = 0) -> list[tuple]:
        """Per record from index ``since``, the tuple of its values at ``keys``
        (``default`` where a record lacks one), without building the record dicts
        (``DictColumns.columns``); e.g. the profiler's L2 samples."""
        return self._cols.columns(keys, default, since)

    def clear(self) -> None:
        self._cols.clear()

    def __len__(self) -> int:
        return len(self._cols)

    def __bool__(self) -> bool:
        return len(self._cols) > 0

    def __getitem__(self, index):
        if isinstance(index, slice):
            return [self._cols.get(j) for j in range(*index.indices(len(self._cols)))]
        return self._cols.get(index)

    def __iter__(self) -> Iterator[dict]:
        get = self._cols.get
        for j in range(len(self._cols)):
            yield get(j)

    def __eq__(self, other) -> bool:
        if isinstance(other, (KernelRecords, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]

    def nbytes(self) -> int:
        """Host bytes of the stored columns (``DictColumns.nbytes``)."""
        return self._cols.nbytes()

    def __repr__(self) -> str:
        return f"KernelRecords({len(self)} kernels, {self.nbytes():,} B)"



_NONE = -(1 << 63)   # "None" in an int column


class SpanColumns:
    """Packed trace spans (``npu_sim.trace.TraceRecorder.pack``) as typed columns:
    per span its kind, interned track / name / category ids (int32), start and
    duration (float64 ns), two int64 slots and a flag -- 46 bytes a span, against
    ~150 bytes for a tuple of boxed floats. Kinds: 0 a span (slots: args index in a
    :class:`DictColumns`, -1 None, and flow id), 1 a pipe span (slots: tile, bytes),
    2 an entry whose fields do not fit the columns (kept as it is; slot 0 indexes it).
    Nothing stored is tracked by the garbage collector (strings, tuples of strings
    and bytes only), apart from kind-2 entries and unpicklable args."""

    __slots__ = ("kind", "track", "name", "cat", "t0", "dur", "x", "y", "flag", "args", "objs", "_ids", "_names",
                 "_spool", "_spilled", "_spilled_pipes", "_spill_ok")

    def __init__(self) -> None:
        self.kind, self.flag = array("b"), array("b")
        self.track, self.name, self.cat = array("i"), array("i"), array("i")
        self.t0, self.dur = array("d"), array("d")
        self.x, self.y = array("q"), array("q")
        self.args = DictColumns()
        self.objs: list = []
        self._ids: dict = {}
        self._names: list = []
        self._spool: _Spool | None = None
        self._spilled = 0       # entries in the spool (segments of SPILL_EVERY, spilled whole)
        self._spilled_pipes = 0
        self._spill_ok = True

    def __len__(self) -> int:
        return self._spilled + len(self.kind)

    def pipe_count(self) -> int:
        """Pipe spans stored (spilled ones included)."""
        return self._spilled_pipes + self.kind.count(1)

    def _cols(self) -> tuple:
        return (self.kind, self.track, self.name, self.cat, self.t0, self.dur, self.x, self.y, self.flag)

    def _maybe_spill(self) -> None:
        """Every SPILL_EVERY entries: move the in-memory columns (and their kept
        objects, indexed per segment) to the spool file."""
        if len(self.kind) < SPILL_EVERY or not self._spill_ok:
            return
        spool = _spill(self._spool, self._cols() + (self.objs,))
        if spool is None:
            self._spill_ok = False
            return
        self._spool = spool
        self._spilled += len(self.kind)
        self._spilled_pipes += self.kind.count(1)
        for col in self._cols():
            del col[:]
        self.objs.clear()

    def _id(self, v) -> int:
        i = self._ids.get(v)
        if i is None:
            i = self._ids[v] = len(self._names)
            self._names.append(v)
        return i

    def _ids_of(self, values) -> Iterator[int]:
        """The ids of ``values``, as ``map(self._id, values)`` gives them (new values
        interned in the order they first occur), with one Python step per distinct
        value rather than per value."""
        ids, intern = self._ids, self._id
        for v in dict.fromkeys(values):
            if v not in ids:
                intern(v)
        return map(ids.__getitem__, values)

    def _other(self, e) -> None:
        self.kind.append(2)
        self.x.append(len(self.objs))
        self.objs.append(e)
        for col in (self.track, self.name, self.cat):
            col.append(0)
        self.t0.append(0.0)
        self.dur.append(0.0)
        self.y.append(0)
        self.flag.append(0)
        self._maybe_spill()

    def add_span(self, track, name, start, dur, cat, args, flow_id, flow_out, cache: dict) -> None:
        """One span's fields (``args`` stored once per pass for dicts shared by
        several spans: ``cache`` maps id(args) to its index for this pass)."""
        if (type(start) is not float or type(dur) is not float or type(name) is not str or type(cat) is not str
                or not (flow_id is None or (type(flow_id) is int and _NONE < flow_id <= _INT_MAX))
                or type(flow_out) is not bool or type(track) is not tuple):
            self._other((track, name, start, dur, cat, args, flow_id, flow_out))
            return
        if args is None:
            ai = -1
        elif type(args) is dict:
            ai = cache.get(id(args))
            if ai is None:
                ai = cache[id(args)] = self.args.add(args)
        else:
            ai = -2 - len(self.objs)
            self.objs.append(args)
        self.kind.append(0)
        self.track.append(self._id(track))
        self.name.append(self._id(name))
        self.cat.append(self._id(cat))
        self.t0.append(start)
        self.dur.append(dur)
        self.x.append(ai)
        self.y.append(_NONE if flow_id is None else flow_id)
        self.flag.append(flow_out)
        self._maybe_spill()

    def add_spans(self, flat: list, cache: dict) -> None:
        """Spans in order, as :meth:`add_span` one by one would store them (spilled at
        the same boundaries, args dicts stored in the same order), with the columns
        extended in bulk. ``flat``: the recorder's flat entries, 9 per span (its mark,
        then the 8 fields ``track, name, start, dur, cat, args, flow_id, flow_out``)."""
        i, n = 0, len(flat) // 9
        while i < n:
            room = SPILL_EVERY - len(self.kind) if self._spill_ok else n - i
            m = min(max(room, 1), n - i)
            chunk = flat[9 * i:9 * (i + m)]
            i += m
            tracks, names, t0, dur, cats, args, fids, fout = (chunk[k::9] for k in range(1, 9))
            if not (all(type(v) is float for v in t0) and all(type(v) is float for v in dur)
                    and all(type(v) is str for v in names) and all(type(v) is str for v in cats)
                    and all(type(v) is bool for v in fout) and all(type(v) is tuple for v in tracks)
                    and all(f is None or (type(f) is int and _NONE < f <= _INT_MAX) for f in fids)):
                for k in range(m):
                    self.add_span(*chunk[9 * k + 1:9 * k + 9], cache)
                continue
            xs = []
            add, objs = self.args.add, self.objs
            for a in args:
                if a is None:
                    xs.append(-1)
                elif type(a) is dict:
                    ai = cache.get(id(a))
                    if ai is None:
                        ai = cache[id(a)] = add(a)
                    xs.append(ai)
                else:
                    xs.append(-2 - len(objs))
                    objs.append(a)
            _id = self._id
            ids = [_id(v) for tnc in zip(tracks, names, cats) for v in tnc]   # interned in add_span's order
            self.kind.extend(bytes(m))
            self.track.extend(ids[0::3])
            self.name.extend(ids[1::3])
            self.cat.extend(ids[2::3])
            self.t0.extend(t0)
            self.dur.extend(dur)
            self.x.extend(xs)
            self.y.extend([_NONE if f is None else f for f in fids])
            self.flag.extend(fout)
            self._maybe_spill()

    def add_pipe(self, e) -> None:
        """One pipe entry ``(track, name, start, dur, tile, nbytes)``."""
        track, name, start, dur, tile, nbytes = e
        if (type(start) is not float or type(dur) is not float or type(tile) is not int or type(nbytes) is not int
                or type(track) is not tuple or type(name) is not str
                or not (_INT_MIN <= tile <= _INT_MAX and _INT_MIN <= nbytes <= _INT_MAX)):
            self._other(e)   # kept as it is (e.g. an int of 64 bits or more: the columns hold int64)
            return
        self.kind.append(1)
        self.track.append(self._id(track))
        self.name.append(self._id(name))
        self.cat.append(0)
        self.t0.append(start)
        self.dur.append(dur)
        self.x.append(tile)
        self.y.append(nbytes)
        self.flag.append(0)
        self._maybe_spill()

    def add_pipes(self, run: list) -> None:
        """Pipe entries (6-tuples) in order, as :meth:`add_pipe` one by one would store
        them (spilled at the same boundaries), with the columns extended in bulk."""
        i, n = 0, len(run)
        while i < n:
            room = SPILL_EVERY - len(self.kind) if self._spill_ok else n - i
            chunk = run[i:i + max(room, 1)]
            i += len(chunk)
            if not all(type(e[2]) is float and type(e[3]) is float and type(e[4]) is int and type(e[5]) is int
                       and type(e[0]) is tuple and type(e[1]) is str for e in chunk):
                for e in chunk:
                    self.add_pipe(e)
                continue
            m = len(chunk)
            tracks, names, t0, dur, tile, nb = zip(*chunk)
            try:   # before any column grows: an int outside int64 sends the chunk entry by entry
                tile, nb = array("q", tile), array("q", nb)
            except OverflowError:
                for e in chunk:
                    self.add_pipe(e)
                continue
            self.kind.extend(b"\x01" * m)
            self.track.extend(self._ids_of(tracks))
            self.name.extend(self._ids_of(names))
            self.cat.extend(array("i", bytes(4 * m)))
            self.t0.extend(t0)
            self.dur.extend(dur)
            self.x.extend(tile)
            self.y.extend(nb)
            self.flag.extend(bytes(m))
            self._maybe_spill()

    def entries(self) -> list:
        """The stored entries in order, each as the recorder had it: a 6-tuple (pipe),
        an 8-tuple (span, args rebuilt once per stored args dict) or the kept entry."""
        built: dict[int, dict] = {}
        out: list = []
        for k in range(len(self._spool) if self._spool is not None else 0):
            out += self._segment_entries(self._spool.read(k), built)
        out += self._segment_entries(self._cols() + (self.objs,), built)
        return out

    def _segment_entries(self, seg: tuple, built: dict) -> list:
        """One segment's entries (see :meth:`entries`). Every entry is first built as
        a pipe 6-tuple straight from the columns (C-level ``zip``: most entries are
        pipe spans); the few others are then replaced one by one."""
        kind, track, name, cat, t0, dur, x, y, flag, objs = seg
        names, args = self._names, self.args
        name_of = names.__getitem__
        out = list(zip(map(name_of, track), map(name_of, name), t0, dur, x, y))
        if kind.count(1) == len(kind):
            return out
        for j in compress(range(len(kind)), map((1).__ne__, kind)):
            if kind[j] == 0:
                ai = x[j]
                if ai == -1:
                    a = None
                elif ai < -1:
                    a = objs[-2 - ai]
                else:
                    a = built.get(ai)
                    if a is None:
                        a = built[ai] = args.get(ai)
                fid = y[j]
                out[j] = (names[track[j]], names[name[j]], t0[j], dur[j], names[cat[j]], a,
                          None if fid == _NONE else fid, bool(flag[j]))
            else:
                out[j] = objs[x[j]]
        return out

    def clear(self) -> None:
        for col in (self.kind, self.flag, self.track, self.name, self.cat, self.t0, self.dur, self.x, self.y):
            del col[:]
        self.args.clear()
        self.objs.clear()
        if self._spool is not None:
            self._spool.close()
        self._spool, self._spilled, self._spilled_pipes, self._spill_ok = None, 0, 0, True
