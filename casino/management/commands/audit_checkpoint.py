from django.core.management.base import BaseCommand

from casino.audit import audit_checkpoint
from casino.checkpoints import checkpoint_path, describe_head


class Command(BaseCommand):
    help = (
        "Append a checkpoint of the audit chain's head (position and hash), and of the other "
        "chains' heads (each bank's last ledger line and its hash), to the checkpoint file "
        "outside the database (AUDIT_CHECKPOINT_PATH); also written at every shift change."
    )

    def handle(self, *args, **options):
        written = audit_checkpoint(reason="requested")
        if written is None:
            self.stdout.write("The audit log is empty: nothing to checkpoint.")
            return
        self.stdout.write(
            f"Checkpoint: position {written['position']}, hash {written['hash']}, "
            f"appended to {checkpoint_path()}."
        )
        for name, heads in written["heads"].items():
            if not heads:
                self.stdout.write(f"{name.capitalize()} heads: none yet.")
            for head in heads:
                self.stdout.write(f"{name.capitalize()} head: {describe_head(name, head)}.")
