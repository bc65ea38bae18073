"""Corpus profiles: a corpus's merge granularity and error categories, learned from its gold M2.

:mod:`.spans` reads gold M2 and scores extracted spans; :mod:`.features` describes an edit;
:mod:`.spanmodel` is the learned span step (the corpus's cuts and joins, applied with numpy);
:mod:`.profile` is the JSON profile (loading executes no code); :mod:`.fit` and
:mod:`.spanfit` learn one (scikit-learn, extra ``profile``). docs/profiles.md.
"""

from __future__ import annotations

from .profile import PROFILE_FORMAT, Profile, ProfileError, load_profile

__all__ = ["PROFILE_FORMAT", "Profile", "ProfileError", "load_profile"]
