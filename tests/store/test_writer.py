"""The database's one writer: write transactions one at a time, reads beside them."""

from __future__ import annotations

import threading

import pytest
from sqlalchemy import select, update

from configurator.store.database import Store
from configurator.store.tables import MetaRow


def test_two_threads_that_read_then_write_both_save(store: Store) -> None:
    """Without one writer, the second of two read-then-write transactions fails at once with
    "database is locked" (SQLite cannot upgrade its read snapshot); through it both are saved."""
    inside = threading.Event()
    go_on = threading.Event()
    errors: list[BaseException] = []
    order: list[str] = []

    def first() -> None:
        try:
            with store.session() as s, s.begin():
                s.execute(select(MetaRow)).all()
                inside.set()
                go_on.wait(5)
                s.add(MetaRow(key="first", value="1"))
                order.append("first")
        except BaseException as exc:  # reported below
            errors.append(exc)

    def second() -> None:
        try:
            with store.session() as s, s.begin():
                s.execute(select(MetaRow)).all()
                s.add(MetaRow(key="second", value="2"))
                order.append("second")
        except BaseException as exc:
            errors.append(exc)

    a = threading.Thread(target=first)
    a.start()
    assert inside.wait(5)
    b = threading.Thread(target=second)
    b.start()
    b.join(0.2)
    assert b.is_alive()  # waiting for the writer, not failing
    with store.session() as s:  # a read runs beside the open write transaction
        assert s.get(MetaRow, "first") is None
    go_on.set()
    a.join(10)
    b.join(10)
    assert errors == [] and order == ["first", "second"]
    with store.session() as s:
        assert {s.get(MetaRow, k).value for k in ("first", "second")} == {"1", "2"}  # type: ignore[union-attr]


def test_a_write_outside_a_write_transaction_is_refused(store: Store) -> None:
    with store.session() as s:
        s.add(MetaRow(key="stray", value="x"))
        with pytest.raises(RuntimeError, match="outside a write transaction"):
            s.flush()
        s.rollback()
    with store.session() as s, pytest.raises(RuntimeError, match="outside a write transaction"):
        s.execute(update(MetaRow).values(value="y"))
    with store.session() as s:
        assert s.get(MetaRow, "stray") is None


def test_the_writer_is_let_go_after_a_failed_write(store: Store) -> None:
    with pytest.raises(ValueError), store.session() as s, s.begin():
        s.add(MetaRow(key="lost", value="x"))
        raise ValueError("the caller's own error")
    done = threading.Event()

    def write() -> None:
        with store.session() as s, s.begin():
            s.add(MetaRow(key="kept", value="y"))
        done.set()

    t = threading.Thread(target=write)
    t.start()
    t.join(5)
    assert done.is_set()
    with store.session() as s:
        assert s.get(MetaRow, "lost") is None and s.get(MetaRow, "kept") is not None


def test_a_bulk_write_waits_for_the_writer_too(store: Store) -> None:
    """The CSV import writes through a Core connection: the same one writer."""
    inside, go_on, wrote = threading.Event(), threading.Event(), threading.Event()

    def hold() -> None:
        with store.session() as s, s.begin():
            s.add(MetaRow(key="held", value="1"))
            s.flush()
            inside.set()
            go_on.wait(5)

    def bulk() -> None:
        with store.begin_write() as con:
            con.execute(MetaRow.__table__.insert().values(key="bulk", value="2"))
        wrote.set()

    a = threading.Thread(target=hold)
    a.start()
    assert inside.wait(5)
    b = threading.Thread(target=bulk)
    b.start()
    assert not wrote.wait(0.2)  # waiting, not failing with "database is locked"
    go_on.set()
    a.join(10)
    b.join(10)
    assert wrote.is_set()
    with store.session() as s:
        assert s.get(MetaRow, "bulk") is not None and s.get(MetaRow, "held") is not None
