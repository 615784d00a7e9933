"""What ships with the app, put into a database: the parts catalogue (db/catalogue, :mod:`.catalogue`) and
the published measurements (db/measurements, :mod:`.measurements`), each only when its files changed.

The app's and the command line's start hand :func:`seed_store` to
:func:`configurator.store.database.open_store`, which runs it inside the open (a failure there is a failed
open: a database the open created is removed). ``open_store`` itself only opens and migrates, so the database
module imports neither the catalogue nor the measurements (they import it).
"""

from __future__ import annotations

import contextlib

from configurator.core.i18n import QT_TRANSLATE_NOOP, Message
from configurator.core.measurements import MeasurementError
from configurator.store.catalogue import sync_catalogue
from configurator.store.database import Store, StoreError, reason_phrase
from configurator.store.measurements import sync_measurements


def seed_store(store: Store) -> None:
    """The shipped catalogue, then the shipped measurements, into ``store`` (``store.catalogue_changes`` and
    ``store.measurement_changes`` say what changed). A database that has the catalogue already keeps working
    when an update cannot be saved (a full disk, a lock): a notice in ``store.notices``, not an error; a
    database without it raises the :class:`StoreError`."""
    try:
        store.catalogue_changes = sync_catalogue(store)
    except StoreError as exc:
        if not _seeded(store):
            raise
        store.notices.append(Message("store", QT_TRANSLATE_NOOP(
            "store", "The updated parts catalogue could not be saved ({error}); the database works as before."),
            {"error": reason_phrase(exc.__cause__ or exc, store.path)}))
    _seed_measurements(store)


def _seed_measurements(store: Store) -> None:
    """The shipped measurements into the database when they changed; a failure is a notice, not a stop."""
    try:
        store.measurement_changes = sync_measurements(store)
    except MeasurementError as exc:  # a packaging bug: the published rows stay as they were
        store.notices.append(Message("store", QT_TRANSLATE_NOOP(
            "store", "The shipped measurements could not be read ({error}); the ones stored before are kept."),
            {"error": str(exc)}))
    except StoreError as exc:
        store.notices.append(Message("store", QT_TRANSLATE_NOOP(
            "store", "The updated measurements could not be saved ({error}); the database works as before."),
            {"error": reason_phrase(exc.__cause__ or exc, store.path)}))


def _seeded(store: Store) -> bool:
    """Whether the database has the shipped catalogue (any part that is not the user's own)."""
    with contextlib.suppress(Exception), store.engine.connect() as con:
        return con.exec_driver_sql("SELECT 1 FROM parts WHERE custom = 0 LIMIT 1").first() is not None
    return False
