"""Print a new VAPID key pair for Web Push, as the environment takes it (README, Configuration)."""

from django.core.management.base import BaseCommand

from tournaments.push import new_key_pair


class Command(BaseCommand):
    help = (
        "Print a new VAPID key pair for Web Push (VAPID_PRIVATE_KEY, VAPID_PUBLIC_KEY) as environment "
        "lines. Keep the private key secret; changing it later makes every browser subscribe again."
    )

    def handle(self, *args, **options):
        private, public = new_key_pair()
        self.stdout.write(f"VAPID_PRIVATE_KEY={private}\n")
        self.stdout.write(f"VAPID_PUBLIC_KEY={public}\n")
        self.stdout.write("# who runs the site, for the push services to reach (or https://your.site):\n")
        self.stdout.write("VAPID_SUBJECT=mailto:you@example.org\n")
