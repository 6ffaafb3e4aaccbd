"""Media checks the Python interop peers share (Interop/aiortc/peer.py, Interop/gstreamer/peer.py):
the dominant tone of received audio, and Tern's test-pattern counter in a decoded picture."""
import numpy

AUDIO_RATE = 48000


def dominant_hz(samples, rate=AUDIO_RATE):
    """The strongest frequency (50 Hz and up) of the last 4 s of mono `samples`; None for under 0.5 s."""
    if len(samples) < rate // 2:
        return None
    window = samples[-rate * 4:] * numpy.hanning(len(samples[-rate * 4:]))
    spectrum = numpy.abs(numpy.fft.rfft(window))
    spectrum[:int(50 * len(window) / rate)] = 0  # ignore DC and hum
    peak = int(numpy.argmax(spectrum))
    if spectrum[peak] <= 0:
        return None
    return round(peak * rate / len(window), 1)


def read_counter(y):
    """Tern's TestPatternReader (TernMedia TestPatternLayout) over a luma plane `y` (rows x columns):
    8x4 blocks in the top half, a 16-bit counter then its complement; None when they disagree."""
    h, w = y.shape
    if w < 16 or h < 16:
        return None
    y = y.astype(numpy.int32)
    bw, bh = w // 8, (h // 2) // 4
    value = 0
    for i in range(32):
        x, yy = (i % 8) * bw, (i // 8) * bh
        x0, x1 = x + bw // 4, x + (3 * bw) // 4
        y0, y1 = yy + bh // 4, yy + (3 * bh) // 4
        mean = int(y[y0:max(y1, y0 + 1), x0:max(x1, x0 + 1)].mean())
        value = (value << 1) | (1 if mean > (16 + 235) // 2 else 0)
    counter, check = value >> 16, value & 0xFFFF
    return counter if check == (~counter & 0xFFFF) else None
