"""`manage.py ratings_recompute [--write]`: rate every scored hand again, in order, from scratch."""

from django.core.management.base import BaseCommand

from scoring.services import ratings_recompute


class Command(BaseCommand):
    help = ("Recompute the skill ratings from the scored hands in the order they ended and compare them "
            "with the stored ones; --write replaces the stored ones (stop the servers first).")

    def add_arguments(self, parser):
        parser.add_argument("--write", action="store_true", help="replace the stored rating history")

    def handle(self, *args, write=False, **options):
        hands, differ = ratings_recompute(write=write)
        self.stdout.write(f"{hands} hands rated; {differ} stored values differ from the recomputed ones"
                          + (" (replaced)" if write and differ else ""))
        if differ and not write:
            raise SystemExit(1)
