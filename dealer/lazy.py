"""Names a package exports but imports on first use (PEP 562), so that importing the package stays light.

>>> space = {}
>>> get = on_use("demo", {"Fraction": "fractions"}, space)
>>> get("Fraction").__name__, "Fraction" in space
('Fraction', True)
"""

from __future__ import annotations

import importlib
from typing import Callable, Mapping

__all__ = ["on_use"]


def on_use(package: str, modules: Mapping[str, str], namespace: dict[str, object]) -> Callable[[str], object]:
    """A module ``__getattr__`` for ``package``: each name of ``modules`` (name -> module) imported when first
    asked for and kept in ``namespace`` (the package's globals); any other name is an AttributeError."""

    def getattr_on_use(name: str) -> object:
        module = modules.get(name)
        if module is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(module), name)
        namespace[name] = value
        return value

    return getattr_on_use
