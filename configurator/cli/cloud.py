"""`configurator cloud-prices`: BUD-3's rental prices per GPU class, and the user's own."""

from __future__ import annotations

import argparse
import dataclasses

from configurator.cli.context import EXIT_OK, Cli, Subcommands, add_command, table
from configurator.core.i18n import QT_TRANSLATE_NOOP


def cmd_cloud_list(cli: Cli) -> int:
    from configurator.core.cloud import price_label
    from configurator.store.cloud_prices import cloud_prices

    store = cli.open_store()
    try:
        prices = cloud_prices(store)
    finally:
        store.close()
    if cli.args.json:
        cli.emit_json([{**dataclasses.asdict(p), "gpus": list(p.gpus)} for p in prices])
        return EXIT_OK
    head = [cli.translate("cli", t) for t in (QT_TRANSLATE_NOOP("cli", "GPU class"),
                                               QT_TRANSLATE_NOOP("cli", "¥/GPU-hour"), QT_TRANSLATE_NOOP("cli", "Date"),
                                               QT_TRANSLATE_NOOP("cli", "Rented"), QT_TRANSLATE_NOOP("cli", "Source"))]
    rows = [head] + [[p.gpu_class, f"{p.cny_per_gpu_hour:g}" + (" *" if p.user_edited else ""), p.date,
                      price_label(p).render(cli.translate), p.source] for p in prices]
    print(table(rows))
    print("\n" + cli.say(QT_TRANSLATE_NOOP(
        "cli", "* your price (`cloud-prices reset CLASS` restores the shipped one).")))
    return EXIT_OK


def cmd_cloud_set(cli: Cli) -> int:
    from configurator.core.cloud import CloudPriceError, check_override, load_cloud_prices
    from configurator.store.cloud_prices import set_price

    name = cli.args.gpu_class
    if name not in {p.gpu_class for p in load_cloud_prices()}:
        cli.fail([("gpu_class", cli.say(QT_TRANSLATE_NOOP(
            "cli", "no GPU class {name!r}; `configurator cloud-prices` lists them"), name=name[:40]))])
    try:
        price = check_override(cli.args.cny_per_gpu_hour)
    except CloudPriceError as exc:  # 0, 1e-320, 1e9, nan: no price
        cli.fail([("cny_per_gpu_hour", cli.render(exc.message))])
    store = cli.open_store(writable=True)
    try:
        set_price(store, name, price)
    finally:
        store.close()
    return EXIT_OK


def cmd_cloud_reset(cli: Cli) -> int:
    from configurator.store.cloud_prices import reset_price

    store = cli.open_store(writable=True)
    try:
        reset_price(store, cli.args.gpu_class)
    finally:
        store.close()
    return EXIT_OK


def _price(text: str) -> float:
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text[:40]!r}") from None


def register(sub: Subcommands) -> None:
    c = add_command(sub, "cloud-prices", help="cloud GPU rental prices for the break-even (BUD-3)")
    csub = c.add_subparsers(dest="cloud_command")
    c.add_argument("--json", action="store_true")
    c.set_defaults(func=cmd_cloud_list)
    s = add_command(csub, "set", help="your own price per GPU and hour for a GPU class (kept across upgrades)")
    s.add_argument("gpu_class")
    s.add_argument("cny_per_gpu_hour", type=_price)
    s.set_defaults(func=cmd_cloud_set)
    r = add_command(csub, "reset", help="back to the shipped price")
    r.add_argument("gpu_class")
    r.set_defaults(func=cmd_cloud_reset)
