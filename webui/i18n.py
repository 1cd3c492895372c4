"""Languages: English, Spanish, Catalan and Italian (gettext catalogues via Flask-Babel).

The language comes from the ``lang`` cookie that the switch on every page sets, else from the
browser's Accept-Language. Catalogues are ``webui/translations/<lang>/LC_MESSAGES/messages.po``
with their compiled ``.mo`` beside them (committed; ``python -m webui.i18n`` recompiles them).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from flask import Blueprint, Flask, redirect, request
from flask_babel import Babel

from .auth import safe_next

LANGUAGES = {"en": "English", "es": "Español", "ca": "Català", "it": "Italiano"}
TRANSLATIONS = Path(__file__).with_name("translations")
COOKIE = "lang"

bp = Blueprint("i18n", __name__)


def select_locale() -> str:
    chosen = request.cookies.get(COOKIE)
    if chosen in LANGUAGES:
        return chosen
    return request.accept_languages.best_match(list(LANGUAGES)) or "en"


def init(app: Flask) -> None:
    app.config["BABEL_TRANSLATION_DIRECTORIES"] = str(TRANSLATIONS)
    Babel(app, locale_selector=select_locale)
    app.jinja_env.globals["LANGUAGES"] = LANGUAGES


@bp.get("/lang/<code>")
def switch(code: str) -> Any:
    resp = redirect(safe_next(request.args.get("next"), "/"))
    if code in LANGUAGES:
        resp.set_cookie(COOKIE, code, max_age=365 * 86400, samesite="Lax", httponly=True)
    return resp


def compile_catalogues(root: Path = TRANSLATIONS) -> list[Path]:
    """Compile every ``messages.po`` under ``root`` to its ``.mo``; return the files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written = []
    for po in sorted(root.glob("*/LC_MESSAGES/messages.po")):
        with po.open("rb") as f:
            catalog = read_po(f, locale=po.parts[-3])
        mo = po.with_suffix(".mo")
        with mo.open("wb") as f:
            write_mo(f, catalog)
        written.append(mo)
    return written


if __name__ == "__main__":  # python -m webui.i18n
    for path in compile_catalogues():
        print(path, file=sys.stderr)
