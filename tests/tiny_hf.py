"""Tiny randomly initialised Hugging Face models built at test time (no download): a word-level
tokenizer over a fixed vocabulary, a GPT-2 causal LM and BERT encoders/regressors, saved with
``save_pretrained`` where a test loads them by directory."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from .conftest import peer

#: every word the tiny models know (others are <unk> / [UNK])
WORDS = ("we can not cannot let it go . the a cat this sentence sentences contain contains "
         "grammatical gramamtical error errors is no change these dummy another corrected into "
         "completely different one was").split()


def hf() -> tuple[Any, Any]:
    """``(torch, transformers)``, skipping (locally) or failing (CI's LM step) without them."""
    torch = peer("torch", "the 'lm' extra; .ci/run installs it for its second step")
    transformers = peer("transformers", "the 'lm' extra")
    return torch, transformers


def _word_tokenizer(specials: list[str], *, bert: bool) -> Any:
    _, transformers = hf()
    from tokenizers import Tokenizer, models, pre_tokenizers, processors

    vocab = {w: i for i, w in enumerate([*specials, *WORDS])}
    unk = "[UNK]" if bert else "<unk>"
    tok = Tokenizer(models.WordLevel(vocab, unk_token=unk))
    tok.pre_tokenizer = pre_tokenizers.WhitespaceSplit()
    if bert:
        tok.post_processor = processors.TemplateProcessing(
            single="[CLS] $A [SEP]", pair="[CLS] $A [SEP] $B:1 [SEP]:1",
            special_tokens=[("[CLS]", vocab["[CLS]"]), ("[SEP]", vocab["[SEP]"])])
        return transformers.PreTrainedTokenizerFast(
            tokenizer_object=tok, unk_token="[UNK]", pad_token="[PAD]", cls_token="[CLS]",
            sep_token="[SEP]", mask_token="[MASK]",
            model_input_names=["input_ids", "token_type_ids", "attention_mask"])
    return transformers.PreTrainedTokenizerFast(
        tokenizer_object=tok, bos_token="<s>", eos_token="</s>", unk_token="<unk>",
        pad_token="<pad>")


def gpt2(seed: int = 0, **config: Any) -> tuple[Any, Any]:
    """``(model, tokenizer)``: a 1-layer GPT-2 over :data:`WORDS` (BOS id 1, pad id 0)."""
    torch, transformers = hf()
    tokenizer = _word_tokenizer(["<pad>", "<s>", "</s>", "<unk>"], bert=False)
    torch.manual_seed(seed)
    settings = {"vocab_size": len(tokenizer), "n_positions": 64, "n_embd": 16, "n_layer": 1,
                "n_head": 2, "bos_token_id": 1, "eos_token_id": 2, **config}
    return transformers.GPT2LMHeadModel(transformers.GPT2Config(**settings)).eval(), tokenizer


def bert_tokenizer() -> Any:
    return _word_tokenizer(["[PAD]", "[UNK]", "[CLS]", "[SEP]", "[MASK]"], bert=True)


def bert_config(**config: Any) -> Any:
    _, transformers = hf()
    settings = {"vocab_size": 5 + len(WORDS), "hidden_size": 16, "num_hidden_layers": 2,
                "num_attention_heads": 2, "intermediate_size": 32, "max_position_embeddings": 64,
                **config}
    return transformers.BertConfig(**settings)


def save(model: Any, tokenizer: Any, path: Path) -> Path:
    """Write model and tokenizer to ``path`` (loadable with ``from_pretrained``)."""
    model.save_pretrained(path)
    tokenizer.save_pretrained(path)
    return path


def bert_encoder(path: Path, seed: int = 0) -> Path:
    """A tiny BERT encoder (``AutoModel``) saved to ``path``."""
    torch, transformers = hf()
    torch.manual_seed(seed)
    return save(transformers.BertModel(bert_config()).eval(), bert_tokenizer(), path)


def bert_regressor(path: Path, seed: int = 0, bias: float | None = None) -> Path:
    """A tiny BERT with one regression output (``AutoModelForSequenceClassification``,
    ``num_labels=1``) saved to ``path``; ``bias``: the output bias (zero weights, so the logit is
    exactly ``bias`` for every input)."""
    torch, transformers = hf()
    torch.manual_seed(seed)
    model = transformers.BertForSequenceClassification(bert_config(num_labels=1)).eval()
    if bias is not None:
        with torch.no_grad():
            model.classifier.weight.zero_()
            model.classifier.bias.fill_(bias)
    return save(model, bert_tokenizer(), path)
