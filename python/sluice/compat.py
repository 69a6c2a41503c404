"""Running dpctl (and dpnp) code on Sluice without editing its imports.

``import sluice as dpctl`` already works for code that reaches everything
through the top-level module (``dpctl.tensor.asarray``,
``dpctl.memory.MemoryUSMShared``, ``dpctl.utils.get_execution_queue``).
For code that imports the submodules by name, one line registers Sluice's
modules under dpctl's (and, with ``dpnp=True``, dpnp's) names::

    import sluice.compat; sluice.compat.install_aliases()
    import dpctl, dpctl.tensor as dpt, dpctl.memory, dpctl.utils

The aliases are entries of ``sys.modules``: ``dpctl`` is ``sluice``,
``dpctl.tensor`` is ``sluice.tensor``, ``dpctl.memory`` is
``sluice.memory``, ``dpctl.utils`` is ``sluice.utils`` (and ``dpnp`` is
``sluice``). ``remove_aliases()`` takes them back.
"""

import sys

ALIASES = {
    "dpctl": "sluice",
    "dpctl.tensor": "sluice.tensor",
    "dpctl.memory": "sluice.memory",
    "dpctl.utils": "sluice.utils",
}
DPNP_ALIASES = {"dpnp": "sluice"}


def install_aliases(*, dpnp=False, force=False):
    """Registers the aliases. Raises ImportError when the real dpctl (or
    dpnp) is already imported, unless ``force`` replaces it. Returns the
    names registered."""
    import importlib

    names = dict(ALIASES)
    if dpnp:
        names.update(DPNP_ALIASES)
    if not force:
        for alias, target in names.items():
            present = sys.modules.get(alias)
            if present is not None and present.__name__ != target:
                raise ImportError(
                    f"the module {alias!r} is imported already (not "
                    "Sluice's): pass force=True to replace it"
                )
    for alias, target in names.items():
        sys.modules[alias] = importlib.import_module(target)
    return sorted(names)


def remove_aliases():
    """Removes the aliases install_aliases() registered."""
    for alias, target in {**ALIASES, **DPNP_ALIASES}.items():
        mod = sys.modules.get(alias)
        if mod is not None and mod.__name__ == target:
            del sys.modules[alias]
