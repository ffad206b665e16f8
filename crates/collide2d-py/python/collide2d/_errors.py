"""The exceptions collide2d raises. Every one is a ``Collide2dError``; each also derives from
the built-in exception a Python caller would expect, so ``except ValueError`` still works."""


class Collide2dError(Exception):
    """Base class of every collide2d exception; the message is the library's."""


class InvalidInput(Collide2dError, ValueError):
    """A value the library refuses: NaN or infinite numbers, a negative radius, a non-convex
    outline, an array of the wrong shape, a corrupt snapshot."""


class ArrayTypeError(Collide2dError, TypeError):
    """An argument of the wrong type: an array of the wrong dtype (floats must be float32 or
    float64, handles uint64 or int64), or something that is not an array or shape at all."""


class StaleHandle(Collide2dError, KeyError):
    """A handle whose collider was removed, or that this world never gave out."""

    def __str__(self) -> str:  # KeyError would quote the message
        return str(self.args[0]) if self.args else ""


class UnknownLayer(Collide2dError, KeyError):
    """A layer name (or index) the world does not have."""

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""
