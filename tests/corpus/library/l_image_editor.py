"""Orientation fixes and channel edits for H x W x 3 images, as a small
editor class with an undo history."""
import numpy as np


class ImageEditor:
    def __init__(self, img):
        self.img = np.asarray(img, dtype=float)

    def clear_bottom_row(self):
        """Meant to blank the last row: writes row 0 of the flipped image."""
        np.flipud(self.img)[0, :, :] = 0.0
        return self

    def set_right_column(self, value):
        mirrored = np.fliplr(self.img)
        mirrored[:, 0, :] = value
        return self

    def scale_channel(self, channel, gain):
        pixels = self.img.reshape(-1, 3)
        pixels[:, channel] *= gain
        return self

    def scale_channel_direct(self, channel, gain):
        self.img[..., channel] *= gain
        return self

    def median_brightness(self):
        """Scratch copy: sorting the flat pixel values must not touch the image."""
        flat = self.img.mean(axis=2).ravel()
        flat.sort()
        return flat[flat.shape[0] // 2]

    def rotated(self):
        return np.rot90(self.img).copy()

    def mask_dark(self, level):
        """Blank every pixel darker than level."""
        dark = self.img.mean(axis=2) < level
        rows, cols = np.nonzero(dark)
        self.img[rows, cols, :] = 0.0
        return self

    def mask_dark_fast(self, level):
        self.img[self.img.mean(axis=2) < level] = 0.0
        return self

    def bright_pixel_count(self, level):
        idx = np.nonzero(self.img.max(axis=2) > level)
        return len(idx[0])

    def brightest_positions(self, k):
        flat = self.img.max(axis=2).ravel()
        order = np.argsort(flat)[::-1][:k]
        return np.column_stack(np.unravel_index(order, self.img.shape[:2]))


class EditHistory:
    """Every intermediate image of a sequence of gains, stacked."""

    def __init__(self, shape):
        self.frames = np.empty((0,) + tuple(shape))

    def record(self, editor, gains):
        for gain in gains:
            editor.scale_channel_direct(0, gain)
            self.frames = np.concatenate([self.frames, editor.img[None]])
        return self.frames


def batch_flip(images):
    """Horizontal flips of an (N, H, W, C) batch."""
    return np.flip(images, axis=2)
