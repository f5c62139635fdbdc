"""Frozen value classes without code generation: what ``@dataclass(frozen=True)`` gives, written once.

The syntax tree has some forty node classes, and ``kibitz`` builds them at every start;
:func:`dataclasses.dataclass` compiles five or six methods for each (about a millisecond a class).
:func:`frozen` gives a class the same constructor, equality, hash, ``repr`` and immutability from
methods shared by every class, reading the fields off the class's annotations (a ``ClassVar`` is
not a field; :func:`dataclasses.field` gives a default, ``compare``, ``repr`` and ``kw_only``).
:func:`replace` and :func:`fields` stand for their :mod:`dataclasses` namesakes.

>>> @frozen
... class Point:
...     x: int
...     y: int = 0
>>> p = Point(1, y=2)
>>> p, p == Point(1, 2), replace(p, y=5), fields(Point)
(Point(x=1, y=2), True, Point(x=1, y=5), ('x', 'y'))
>>> p.x = 3
Traceback (most recent call last):
  ...
dataclasses.FrozenInstanceError: cannot assign to field 'x'
"""

from __future__ import annotations

import dataclasses
import typing
from typing import Any, NamedTuple, TypeVar, dataclass_transform

__all__ = ["frozen", "replace", "fields"]

_T = TypeVar("_T")
_MISSING: Any = dataclasses.MISSING


class _Spec(NamedTuple):
    default: Any
    compare: bool
    repr: bool
    kw_only: bool


@dataclass_transform(frozen_default=True, field_specifiers=(dataclasses.field,))
def frozen(cls: type[_T]) -> type[_T]:
    """Make ``cls`` a frozen value class of the fields its annotations declare (and its bases')."""
    specs: dict[str, _Spec] = dict(getattr(cls, "__frozen_fields__", {}))
    for name, annotation in cls.__dict__.get("__annotations__", {}).items():
        if "ClassVar" in str(annotation):
            continue
        value = cls.__dict__.get(name, _MISSING)
        if isinstance(value, dataclasses.Field):  # the class attribute becomes the default (or goes)
            if value.default_factory is not _MISSING:
                raise TypeError(f"{cls.__name__}.{name}: a frozen value's fields take a default, not a factory")
            spec = _Spec(value.default, value.compare, value.repr, value.kw_only is True)
            if spec.default is _MISSING:
                delattr(cls, name)
            else:
                setattr(cls, name, spec.default)
        else:
            spec = _Spec(value, True, True, False)
        specs[name] = spec
    attributes: dict[str, Any] = {
        "__frozen_fields__": specs,
        "__frozen_compared__": tuple(n for n, s in specs.items() if s.compare),
        "__frozen_shown__": tuple(n for n, s in specs.items() if s.repr),
        "__match_args__": tuple(n for n, s in specs.items() if not s.kw_only),
        "__init__": _init, "__eq__": _eq, "__hash__": _hash, "__setattr__": _setattr, "__delattr__": _delattr,
        "__signature__": _SIGNATURE,
    }
    if "__repr__" not in cls.__dict__:
        attributes["__repr__"] = _repr
    for key, value in attributes.items():
        setattr(cls, key, value)
    return cls


def _init(self: Any, *args: Any, **kwargs: Any) -> None:
    cls = type(self)
    positional = cls.__match_args__  # the fields given by position: all but the keyword-only ones
    if len(args) > len(positional):
        raise TypeError(f"{cls.__name__}() takes {len(positional)} positional arguments but {len(args)} were given")
    values = dict(zip(positional, args))
    for name, value in kwargs.items():
        if name in values or name not in cls.__frozen_fields__:
            raise TypeError(f"{cls.__name__}() got {'multiple values for' if name in values else 'an unexpected'} "
                            f"argument {name!r}")
        values[name] = value
    for name, spec in cls.__frozen_fields__.items():
        if name in values:
            object.__setattr__(self, name, values[name])
        elif spec.default is _MISSING:
            raise TypeError(f"{cls.__name__}() missing required argument: {name!r}")
        else:
            object.__setattr__(self, name, spec.default)
    post_init = getattr(self, "__post_init__", None)
    if post_init is not None:
        post_init()


def _key(self: Any) -> tuple[Any, ...]:
    return tuple([getattr(self, name) for name in type(self).__frozen_compared__])


def _eq(self: Any, other: object) -> Any:  # a bool, or NotImplemented for another class
    if other.__class__ is not self.__class__:
        return NotImplemented
    return _key(self) == _key(other)


def _hash(self: Any) -> int:
    return hash(_key(self))


def _repr(self: Any) -> str:
    shown = ", ".join(f"{name}={getattr(self, name)!r}" for name in type(self).__frozen_shown__)
    return f"{type(self).__qualname__}({shown})"


def _setattr(self: Any, name: str, value: Any) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot assign to field {name!r}")


def _delattr(self: Any, name: str) -> None:
    raise dataclasses.FrozenInstanceError(f"cannot delete field {name!r}")


class _Signature:
    """The constructor's signature, for :func:`inspect.signature`, ``help()`` and the API pages (built on use)."""

    def __get__(self, obj: Any, owner: Any) -> Any:
        import inspect

        kinds = (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
        try:
            hints = typing.get_type_hints(owner)  # the types themselves, where the annotations' names resolve
        except NameError:
            hints = {}
            for klass in reversed(owner.__mro__):
                hints.update(klass.__dict__.get("__annotations__", {}))
        return inspect.Signature([
            inspect.Parameter(name, kinds[spec.kw_only], annotation=hints.get(name, inspect.Parameter.empty),
                              default=inspect.Parameter.empty if spec.default is _MISSING else spec.default)
            for name, spec in sorted(owner.__frozen_fields__.items(), key=lambda item: item[1].kw_only)])


_SIGNATURE = _Signature()


def replace(obj: _T, **changes: Any) -> _T:
    """A copy of a :func:`frozen` value with some fields changed."""
    values = {name: getattr(obj, name) for name in type(obj).__frozen_fields__}  # type: ignore[attr-defined]
    unknown = set(changes) - set(values)
    if unknown:
        raise TypeError(f"{type(obj).__name__} has no field {sorted(unknown)[0]!r}")
    values.update(changes)
    return type(obj)(**values)


def fields(obj: Any) -> tuple[str, ...]:
    """The names of a :func:`frozen` class's (or value's) fields, in order."""
    return tuple(obj.__frozen_fields__)
