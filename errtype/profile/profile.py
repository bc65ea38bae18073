"""A corpus profile: plain JSON (merge settings, learned span decisions, and a linear model
over edit features whose classes are the corpus's categories). Loading parses JSON and checks
it; no code is executed (no pickle), and applying the models needs only numpy.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..errors import InputError
from ..merge import MergeSettings
from ..version import __version__
from .features import FEATURES_VERSION
from .spanmodel import SpanModel

#: the ``format`` field of every profile
PROFILE_FORMAT = "errtype-profile"


class ProfileError(InputError):
    """A profile that cannot be used: not a profile, damaged, or for another errtype version,
    feature set or language."""


@dataclass
class Profile:
    """Merge settings and a multinomial logistic model (``coef``: one row per class, one
    column per feature of ``vocabulary``) mapping errtype's edit features to ``classes``;
    ``spans``: the learned span step applied after the merge settings (None: none)."""

    language: str
    merge: MergeSettings
    classes: list[str]
    vocabulary: list[str]
    coef: list[list[float]]
    intercept: list[float]
    errtype_version: str = __version__
    features_version: int = FEATURES_VERSION
    meta: dict[str, Any] = field(default_factory=dict)
    spans: SpanModel | None = None

    def __post_init__(self) -> None:
        self._index = {f: i for i, f in enumerate(self.vocabulary)}
        self._coef = np.asarray(self.coef, dtype=float).reshape(len(self.classes),
                                                                len(self.vocabulary))
        self._intercept = np.asarray(self.intercept, dtype=float)

    def predict(self, features: list[str]) -> str:
        """The category of an edit with ``features`` (:func:`.features.edit_features`)."""
        cols = [self._index[f] for f in set(features) if f in self._index]
        scores = self._intercept + self._coef[:, cols].sum(axis=1)
        return self.classes[int(np.argmax(scores))]

    def check(self, language: str, name: str = "profile") -> None:
        """Raise :class:`ProfileError` unless this profile was fitted for ``language``."""
        if language != self.language:
            raise ProfileError(f"{name}: this profile was fitted on a {self.language!r} corpus and "
                               f"cannot type {language!r}: fit one on {language!r} gold "
                               f"(errtype fit --lang {language} GOLD.m2 -o PROFILE.json)")

    def to_json(self) -> dict[str, Any]:
        return {"format": PROFILE_FORMAT, "errtype_version": self.errtype_version,
                "features_version": self.features_version, "language": self.language,
                "merge": self.merge.to_dict(), "classes": self.classes,
                "vocabulary": self.vocabulary,
                "coef": [[round(float(x), 6) for x in row] for row in self.coef],
                "intercept": [round(float(x), 6) for x in self.intercept],
                "spans": self.spans.to_json() if self.spans else None, "meta": self.meta}

    def save(self, path: str | os.PathLike[str]) -> None:
        """Write the profile as JSON, atomically."""
        from ..textio import atomic_output

        with atomic_output(path) as out:
            json.dump(self.to_json(), out, ensure_ascii=False)
            out.write("\n")

    @classmethod
    def from_json(cls, data: Any, name: str = "profile") -> Profile:
        """Check and build (:class:`ProfileError` naming ``name`` when it does not fit)."""
        if not isinstance(data, dict) or data.get("format") != PROFILE_FORMAT:
            raise ProfileError(f"{name}: not an errtype profile (no \"format\": "
                               f"\"{PROFILE_FORMAT}\")")
        if data.get("errtype_version") != __version__:
            raise ProfileError(f"{name}: fitted with errtype {data.get('errtype_version')}, "
                               f"this is errtype {__version__}: fit the profile again")
        if data.get("features_version") != FEATURES_VERSION:
            raise ProfileError(f"{name}: features version {data.get('features_version')}, "
                               f"this errtype reads {FEATURES_VERSION}: fit the profile again")
        try:
            classes = [str(c) for c in data["classes"]]
            vocab = [str(f) for f in data["vocabulary"]]
            coef = [[float(x) for x in row] for row in data["coef"]]
            intercept = [float(x) for x in data["intercept"]]
            merge = MergeSettings.from_dict(dict(data["merge"]))
            language = str(data["language"])
            spans = SpanModel.from_json(data["spans"]) if data.get("spans") else None
        except (KeyError, TypeError, ValueError) as exc:
            raise ProfileError(f"{name}: damaged profile ({exc})") from None
        if len(coef) != len(classes) or any(len(r) != len(vocab) for r in coef) \
                or len(intercept) != len(classes) or not classes:
            raise ProfileError(f"{name}: damaged profile (model shapes do not match)")
        return cls(language, merge, classes, vocab, coef, intercept,
                   meta=dict(data.get("meta") or {}), spans=spans)


def load_profile(path: str | os.PathLike[str] | Profile, language: str | None = None
                 ) -> Profile:
    """The profile in JSON file ``path`` (checked for ``language`` when given)."""
    name = "profile"
    if isinstance(path, Profile):
        profile = path
    else:
        name = str(path)
        try:
            with open(path, encoding="utf-8") as f:
                data = json.load(f)
        except json.JSONDecodeError as exc:
            raise ProfileError(f"{path}: not JSON (line {exc.lineno}: {exc.msg})") from None
        except UnicodeDecodeError:
            raise ProfileError(f"{path}: not JSON (not UTF-8 text)") from None
        except OSError as exc:
            raise ProfileError(f"{path}: cannot read the profile ({exc.strerror})") from None
        profile = Profile.from_json(data, str(path))
    if language is not None:
        profile.check(language, name)
    return profile
