"""Small, randomly initialised PyTorch models for the from_torch tests and benchmarks (nothing downloaded).

Each entry builds ``(module, example_args)`` in eval mode with a fixed seed; the configurations are
the smallest that keep every layer type of the architecture.
"""

from __future__ import annotations

from collections.abc import Callable

import torch


def _seeded(build: Callable[[], tuple]) -> Callable[[], tuple]:
    def seeded() -> tuple:
        torch.manual_seed(0)
        module, args = build()
        return module.eval(), args

    seeded.__name__ = build.__name__
    return seeded


@_seeded
def bert() -> tuple:
    from transformers import BertConfig, BertModel

    cfg = BertConfig(
        vocab_size=100,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
        max_position_embeddings=32,
    )
    return BertModel(cfg), (torch.randint(0, 100, (2, 8)),)


@_seeded
def vit() -> tuple:
    from transformers import ViTConfig, ViTModel

    cfg = ViTConfig(
        image_size=16,
        patch_size=4,
        num_channels=3,
        hidden_size=32,
        num_hidden_layers=2,
        num_attention_heads=4,
        intermediate_size=64,
    )
    return ViTModel(cfg), (torch.randn(2, 3, 16, 16),)


@_seeded
def resnet() -> tuple:
    from transformers import ResNetConfig, ResNetModel

    cfg = ResNetConfig(
        num_channels=3, embedding_size=8, hidden_sizes=[8, 16], depths=[1, 1], layer_type="basic"
    )
    return ResNetModel(cfg), (torch.randn(2, 3, 32, 32),)


@_seeded
def llama() -> tuple:
    from transformers import LlamaConfig, LlamaForCausalLM

    cfg = LlamaConfig(
        vocab_size=100,
        hidden_size=32,
        intermediate_size=64,
        num_hidden_layers=2,
        num_attention_heads=4,
        num_key_value_heads=2,
        max_position_embeddings=32,
        use_cache=False,
    )
    return LlamaForCausalLM(cfg), (torch.randint(0, 100, (2, 8)),)


@_seeded
def transformer_encoder() -> tuple:
    layer = torch.nn.TransformerEncoderLayer(
        d_model=16, nhead=4, dim_feedforward=32, dropout=0.0, batch_first=True
    )
    return torch.nn.TransformerEncoder(layer, num_layers=2, enable_nested_tensor=False), (
        torch.randn(2, 5, 16),
    )


@_seeded
def lstm() -> tuple:
    return torch.nn.LSTM(input_size=6, hidden_size=8, num_layers=2, batch_first=True), (torch.randn(3, 5, 6),)


@_seeded
def gru() -> tuple:
    return torch.nn.GRU(input_size=6, hidden_size=8, batch_first=True, bidirectional=True), (
        torch.randn(3, 5, 6),
    )


@_seeded
def conv_transpose2d() -> tuple:
    return torch.nn.ConvTranspose2d(4, 3, kernel_size=3, stride=2, padding=1, output_padding=1), (
        torch.randn(2, 4, 5, 5),
    )


@_seeded
def batch_norm2d() -> tuple:
    bn = torch.nn.BatchNorm2d(4)
    with torch.no_grad():
        bn.running_mean.uniform_(-1, 1)
        bn.running_var.uniform_(0.5, 2)
        bn.weight.uniform_(0.5, 1.5)
        bn.bias.uniform_(-0.5, 0.5)
    return bn, (torch.randn(2, 4, 3, 3),)


@_seeded
def embedding() -> tuple:
    return torch.nn.Embedding(20, 6), (torch.randint(0, 20, (3, 4)),)


MODELS: dict[str, Callable[[], tuple]] = {
    f.__name__: f
    for f in (
        bert,
        vit,
        resnet,
        llama,
        transformer_encoder,
        lstm,
        gru,
        conv_transpose2d,
        batch_norm2d,
        embedding,
    )
}
