"""Who a request is made by, as the type checker sees ``request.user``: a signed-in user or
the anonymous one.

``User`` is the model ``AUTH_USER_MODEL`` names (Django's own); the django-stubs plugin
types ``request.user`` and every foreign key to it with that model, so functions that take
a request's user, or filter on one, say so with this alias. A type only: nothing imports
the models at run time from here, so any module can use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, TypeAlias

if TYPE_CHECKING:
    from django.contrib.auth.models import AnonymousUser, User

RequestUser: TypeAlias = "User | AnonymousUser"
