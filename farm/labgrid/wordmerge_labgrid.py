# SPDX-License-Identifier: MIT
"""WordmergeQEMUDriver: labgrid's QEMUDriver for an image that ends QEMU itself
(docs/farms.md says why); its exit status is kept in exitcode."""
import attr

from labgrid.driver import QEMUDriver
from labgrid.factory import target_factory
from labgrid.step import step
from labgrid.util.qmp import QMPError


@target_factory.reg_driver
@attr.s(eq=False)
class WordmergeQEMUDriver(QEMUDriver):
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
        self.exitcode = child.returncode if child is not None else None
        self.logger.info("QEMU exited by itself with status %s", self.exitcode)
        self._child = None
        self.status = 0
