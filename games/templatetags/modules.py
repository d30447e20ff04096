"""``{% module_script "live/table.js" %}``: a page's ES module (the live table's, the
replay's) with the import map that sends each module it imports to its hashed name.

A module's imports are relative ("./cards.js"): the browser resolves them against the
importing module's address, giving the file's plain name under STATIC_URL. In production
collectstatic gives every static file a content-hashed name that WhiteNoise serves for
good (and the manifest's storage, WhiteNoise's CompressedManifestStaticFilesStorage, leaves
a JS file's import statements as they are: Django rewrites them only in a storage that
sets ``support_js_module_import_aggregation``). So the page maps each plain name to the
hashed one, ``static()``'s, in a ``<script type="importmap">``: JSON, no code, carrying
the response's CSP nonce (script-src allows nothing inline without it). In debug both
names are the same. The modules are found by following the entry's imports in the
source files (the static files finders), once per process outside debug.
"""

from __future__ import annotations

import functools
import json
import posixpath
import re

from django import template
from django.conf import settings
from django.contrib.staticfiles import finders
from django.templatetags.static import static
from django.utils.html import format_html
from django.utils.safestring import SafeString

register = template.Library()

# `import ... from "./x.js";`, `export ... from "./x.js";`, `import "./x.js";`: relative
# specifiers only (bare ones are not this site's files)
IMPORTS = re.compile(r"""\b(?:import|export)\b[^;'"]*?(?:\bfrom\s*)?["'](\.{1,2}/[^"']+)["']""")


def _source(path: str) -> str:
    found = finders.find(path)
    if not found:
        raise template.TemplateSyntaxError(f"no static file {path!r} (a module or its import)")
    with open(found if isinstance(found, str) else found[0], encoding="utf-8") as file:
        return file.read()


def modules(entry: str) -> list[str]:
    """``entry`` (a static path) and every module it imports, directly or not, in the
    order first met."""
    found = [entry]
    for path in found:  # grows as it goes
        for spec in IMPORTS.findall(_source(path)):
            target = posixpath.normpath(posixpath.join(posixpath.dirname(path), spec))
            if target not in found:
                found.append(target)
    return found


_cached_modules = functools.lru_cache(maxsize=None)(modules)


def import_map(entry: str) -> dict[str, dict[str, str]]:
    paths = modules(entry) if settings.DEBUG else _cached_modules(entry)
    return {"imports": {settings.STATIC_URL + path: static(path) for path in paths[1:]}}


@register.simple_tag(takes_context=True)
def module_script(context: template.Context, entry: str) -> SafeString:
    """The import map of ``entry``'s imports and ``entry`` itself as a module script."""
    request = context.get("request")
    # django-csp's nonce is lazy, and false until read: read, it goes into the header too
    found = getattr(request, "csp_nonce", None)
    nonce = "" if found is None else str(found)
    # JSON inside a script element: "<" escaped, so that no "</script>" can end it early
    data = json.dumps(import_map(entry), sort_keys=True).replace("<", "\\u003c")
    return format_html('<script type="importmap"{}>{}</script>'
                       '<script type="module" src="{}"></script>',
                       format_html(' nonce="{}"', nonce) if nonce else "",
                       SafeString(data), static(entry))
