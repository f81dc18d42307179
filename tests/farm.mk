# SPDX-License-Identifier: MIT
# The board-farm glue (farm/, docs/farms.md): labgrid and LAVA.  Included by
# the top Makefile.
