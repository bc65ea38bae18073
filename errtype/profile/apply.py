"""A language typing and merging as a profile says (generic UD languages only)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..edit import Edit
from ..tokens import Sentence
from .features import edit_features
from .profile import Profile, ProfileError, load_profile

if TYPE_CHECKING:
    from ..lang.base import Language


class ProfileClassifier:
    """errtype's classifier, its types mapped to the profile's categories (every other
    attribute is the wrapped classifier's)."""

    def __init__(self, base: Any, profile: Profile) -> None:
        self.base = base
        self.profile = profile

    def __getattr__(self, name: str) -> Any:
        return getattr(self.base, name)

    def classify(self, edit: Edit, orig: Sentence, cor: Sentence) -> str:
        etype = self.base.classify(edit, orig, cor)
        if etype == "UNK":
            return etype
        feats = edit_features(edit, orig, cor, etype, getattr(self.base, "is_valid_word", None))
        return self.profile.predict(feats)


def profiled(language: Language, profile: Any) -> Language:
    """A copy of ``language`` with ``profile``'s merge settings and categories (``profile``: a
    :class:`Profile` or the path of its JSON file)."""
    found = load_profile(profile, language.code)
    with_merge = getattr(language, "with_merge_settings", None)
    if with_merge is None or not hasattr(language, "classifier"):
        raise ProfileError(f"profiles type only languages of the generic UD classifier; "
                           f"{language.code!r} has its own rules")
    # the profile learnt from types naming the differing UD features (feats=True)
    new = with_merge(found.merge).with_options(feats=True)
    new.span_model = found.spans            # cuts and joins after the merge settings
    new._classifier = ProfileClassifier(new.classifier, found)
    new.profile = profile if isinstance(profile, Profile) else str(profile)
    new.profile_model = found
    return new
