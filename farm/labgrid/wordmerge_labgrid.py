# SPDX-License-Identifier: MIT
"""labgrid driver for the wordmerge image on QEMU (imported by
qemu-virt.yaml's `imports:`).

The image ends its run on QEMU virt through the "sifive,test0" finisher,
and QEMU 7.2 then exits by itself with the image's status (-no-shutdown does
not stop that).  labgrid's QEMUDriver expects to stop QEMU itself with QMP
"quit" and fails with a broken pipe; this driver is QEMUDriver with an off()
that accepts a QEMU that has exited, or exits while quit is on its way (the
console's EXIT: line comes just before the finisher), and keeps its exit
status.
"""
import attr

from labgrid.driver import QEMUDriver
from labgrid.factory import target_factory
from labgrid.step import step
from labgrid.util.qmp import QMPError


@target_factory.reg_driver
@attr.s(eq=False)
class WordmergeQEMUDriver(QEMUDriver):
    """QEMUDriver for a guest that may end QEMU itself (test finisher)."""

    def __attrs_post_init__(self):
        super().__attrs_post_init__()
        self.exitcode = None

    @step()
    def off(self):
        if not self.status:
            return
        child = self._child
        if child is not None and child.poll() is None:
            try:
                super().off()  # still running: QMP quit as usual
                return
            except (QMPError, OSError):
                child.wait(timeout=30)  # the finisher ended it first
        # QEMU exited by itself: the guest wrote the test finisher.
        self.exitcode = child.returncode if child is not None else None
        self.logger.info("QEMU exited by itself with status %s", self.exitcode)
        self._child = None
        self.status = 0
