"""The regional games of the backgammon family: Portes, Uzun Tavla, Plakoto, Fevga, Long Nardi,
short nardi (standard and Caucasian) and Tavli as a match.

The rules themselves are values of ``engine.rules.Rules``; this package holds what only they
need: the move generator for the variant hooks (``search``, ``plays``), the settings where the
sources disagree (``settings``), the end of a Plakoto game by its mother (``scoring``) and the
variant judge's reasons (``reasons``).
"""
