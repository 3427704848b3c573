"""The web's accounts (``ledger serve``, issue 23): users and their roles (``users``), their
passwords (``passwords``: Argon2id, the rules of what may be one), the sessions kept on the
server (``sessions``) and logging in, with its throttle (``logins``).

Nothing here is a fact of the ledger (the close never reads these tables), but every change is
in the audit log like any other write: ``user.add``, ``user.role``, ``user.disable``,
``user.enable``, ``user.password``, ``user.password-reset``, ``user.password-failed``,
``user.login``, ``user.login-failed``, ``user.login-throttled``, ``user.logout``; never a
password or its hash.

May call: core
"""
