"""Kibitz's play-time inference engine (built on :mod:`dealer`).

The main names are here, imported on first use (``from inference import PlayState``); the layers below
(:mod:`inference.rules`, :mod:`~inference.claims`, :mod:`~inference.exact`, :mod:`~inference.io`,
:mod:`~inference.auction`, :mod:`~inference.defence`, :mod:`~inference.state`, :mod:`~inference.apps`,
:mod:`~inference.commands`) hold the rest (docs/architecture.rst).
"""

from typing import TYPE_CHECKING

from dealer.lazy import on_use
from inference.errors import InferenceError

if TYPE_CHECKING:
    from inference.apps.replay import replay_record
    from inference.apps.testing import rule_run
    from inference.claims.inferences import Inference, Status, Tag
    from inference.claims.language import claim_text, parse_claim
    from inference.claims.weights import HoldingWeights
    from inference.exact.layouts import Layouts, View
    from inference.io.records import PlayRecord, read_records
    from inference.state.play import PlayState
    from inference.state.render import bounds_table, render_update

__all__ = ["InferenceError", "PlayState", "View", "Layouts", "Inference", "Tag", "Status", "HoldingWeights",
           "parse_claim", "claim_text", "render_update", "bounds_table", "PlayRecord", "read_records",
           "replay_record", "rule_run"]

#: The engine's main names, imported on first use: ``import inference`` stays light (the command line's
#: start-up imports only what its subcommand needs).
_ON_USE = {"PlayState": "inference.state.play", "View": "inference.exact.layouts", "Layouts": "inference.exact.layouts",
           "Inference": "inference.claims.inferences", "Tag": "inference.claims.inferences",
           "Status": "inference.claims.inferences", "HoldingWeights": "inference.claims.weights",
           "parse_claim": "inference.claims.language", "claim_text": "inference.claims.language",
           "render_update": "inference.state.render", "bounds_table": "inference.state.render",
           "PlayRecord": "inference.io.records", "read_records": "inference.io.records",
           "replay_record": "inference.apps.replay", "rule_run": "inference.apps.testing"}


#: The names of :data:`_ON_USE`, imported when first asked for.
__getattr__ = on_use(__name__, _ON_USE, globals())
