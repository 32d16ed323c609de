"""Image filter classes for grayscale images stored as 2-D arrays."""
import numpy as np


class ImageFilter:
    """A square kernel applied by correlation with replicated edges."""

    def __init__(self, kernel):
        self.kernel = np.asarray(kernel, dtype=float)
        self.k = self.kernel.shape[0] // 2

    def apply(self, img):
        """One output pixel at a time."""
        padded = np.pad(img.astype(float), self.k, mode="edge")
        out = np.empty(img.shape)
        size = self.kernel.shape[0]
        for i in range(img.shape[0]):
            for j in range(img.shape[1]):
                out[i, j] = np.sum(padded[i:i + size, j:j + size] * self.kernel)
        return out

    def apply_fast(self, img):
        """Same result with one whole-image multiply-add per kernel tap."""
        padded = np.pad(img.astype(float), self.k, mode="edge")
        H, W = img.shape
        out = np.zeros((H, W))
        size = self.kernel.shape[0]
        for di in range(size):
            for dj in range(size):
                out += self.kernel[di, dj] * padded[di:di + H, dj:dj + W]
        return out


class BoxBlur(ImageFilter):
    def __init__(self, size=3):
        super().__init__(np.ones((size, size)) / (size * size))


class Sharpen(ImageFilter):
    def __init__(self, amount=1.0):
        k = -amount * np.ones((3, 3)) / 9.0
        k[1, 1] += 1.0 + amount
        super().__init__(k)


class MedianFilter:
    def __init__(self, size=3):
        self.size = size

    def __call__(self, img):
        r = self.size // 2
        padded = np.pad(img, r, mode="reflect")
        out = np.empty_like(img)
        for i in range(img.shape[0]):
            for j in range(img.shape[1]):
                out[i, j] = np.median(padded[i:i + self.size, j:j + self.size])
        return out


class Geometry:
    """Orientation and resolution changes."""

    @staticmethod
    def mirror(img):
        return img[:, ::-1]

    @staticmethod
    def downsample(img, factor=2):
        return img[::factor, ::factor]

    @staticmethod
    def rotate(img):
        return np.rot90(img)


class ToneMap:
    """sRGB-style transfer curve."""

    def __init__(self, gamma=2.4):
        self.gamma = gamma
        self._curve = np.vectorize(self._map_pixel)

    def _map_pixel(self, v):
        if v <= 0.0031308:
            return 12.92 * v
        return 1.055 * v ** (1.0 / self.gamma) - 0.055

    def __call__(self, img):
        return self._curve(img)

    def fast(self, img):
        return np.where(img <= 0.0031308, 12.92 * img, 1.055 * np.power(img, 1.0 / self.gamma) - 0.055)


def threshold(img, t):
    out = img.copy()
    idx = np.where(img > t)
    out[idx] = 255
    return out


def clamp_in_place(img, lo=0, hi=255):
    """Meant to clamp img in place through a flat view."""
    flat = img.ravel()
    flat[flat < lo] = lo
    flat[flat > hi] = hi
    return img


def run_pipeline(img, filters):
    for f in filters:
        img = f(img)
    return img
