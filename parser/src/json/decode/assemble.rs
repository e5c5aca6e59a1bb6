//! ASSEMBLE: sources, budget, priority, format specs, STREAM, and template bodies.

use super::{Decoder, NO_SPAN, Ptr, R};
use crate::ast::*;
use crate::json::names;
use crate::json::schema::at;
use cal_lexer::is_bidi_control;
use serde_json::{Map, Value as Json};

impl Decoder {
    pub(super) fn assemble(&mut self, o: &Map<String, Json>, p: &Ptr) -> R<Assemble> {
        let name = self.opt(o, "name", p, Self::user_name);
        let intent = self.opt(o, "for", p, Self::string_lit);
        let sources = self.opt(o, "from", p, |d, v, p| d.list(v, p, Self::source));
        let budget = self.opt(o, "budget", p, |d, v, p| {
            let b = d.obj(v, p)?;
            let amount = d.req(b, "amount", p).and_then(|a| d.int_lit(a, &p.key("amount")));
            let unit =
                d.req(b, "unit", p).and_then(|u| d.word(u, &p.key("unit"), "budget unit", BudgetUnit::from_word));
            Ok(Budget { amount: amount?, unit: unit?, span: NO_SPAN })
        });
        let priority =
            self.opt(o, "priority", p, |d, v, p| Ok(Priority { labels: d.list(v, p, Self::label)?, span: NO_SPAN }));
        let format = self.opt(o, "format", p, Self::format_spec);
        let stream = self
            .opt(o, "stream", p, |d, v, p| Ok(Stream { options: d.list(v, p, Self::stream_option)?, span: NO_SPAN }));
        let with = self.opt(o, "with", p, Self::with_clause);
        Ok(Assemble {
            name: name?,
            intent: intent?,
            sources: sources?.unwrap_or_default(),
            budget: budget?,
            priority: priority?,
            format: format?,
            stream: stream?,
            with: with?,
            span: NO_SPAN,
        })
    }

    pub(super) fn source(&mut self, v: &Json, p: &Ptr) -> R<Source> {
        let o = self.obj(v, p)?;
        let label = self.opt(o, "label", p, Self::label);
        let body = match (o.get("recall"), o.get("let")) {
            (Some(r), None) => SourceBody::Recall(self.recall_object(r, &p.key("recall"))?),
            (None, Some(n)) => SourceBody::LetRef(self.let_name(n, &p.key("let"))?),
            _ => return Err(self.fail(p, "a source has either `recall` or `let`.")),
        };
        Ok(Source { label: label?, body, span: NO_SPAN })
    }

    /// `"markdown"`, `{"template": name}` or `{"template": [sections]}`.
    pub(super) fn format_spec(&mut self, v: &Json, p: &Ptr) -> R<FormatSpec> {
        let kind = match v {
            Json::Object(o) => {
                let t = self.req(o, "template", p)?;
                let tp = p.key("template");
                match t {
                    Json::String(_) => FormatKind::Template(self.word_name(t, &tp)?),
                    _ => FormatKind::Inline(self.template_body(t, &tp)?),
                }
            }
            _ => FormatKind::Named(self.word(v, p, "format", FormatName::from_word)?),
        };
        Ok(FormatSpec { kind, span: NO_SPAN })
    }

    pub(super) fn stream_option(&mut self, v: &Json, p: &Ptr) -> R<StreamOption> {
        let o = self.obj(v, p)?;
        let name = self.req(o, "option", p)?;
        let kind = match self.raw_str(name, &p.key("option"))? {
            "chunk_size" => {
                let n = self.req(o, "value", p)?;
                StreamOptionKind::ChunkSize(self.int_lit(n, &p.key("value"))?)
            }
            _ => {
                StreamOptionKind::Events(self.word(name, &p.key("option"), "stream option", StreamEvents::from_word)?)
            }
        };
        Ok(StreamOption { kind, span: NO_SPAN })
    }

    /// `[{"section": "ELEMENT", "text": "…"}, …]`; each text must be a body the lexer reads back whole.
    pub(super) fn template_body(&mut self, v: &Json, p: &Ptr) -> R<TemplateBody> {
        let sections = self.list(v, p, |d, v, p| {
            let o = d.obj(v, p)?;
            let kind = d
                .req(o, "section", p)
                .and_then(|k| d.word(k, &p.key("section"), "template section", TemplateSectionKind::from_word));
            let text = d.req(o, "text", p)?;
            let tp = p.key("text");
            let text = d.raw_str(text, &tp)?;
            d.check_bidi(text, &tp);
            if !text.chars().any(is_bidi_control) && !names::is_template_text(text) {
                d.report(
                    at(&tp.0, "the template text has unbalanced braces or an unclosed `{{` tag.").with_suggestion(
                        "Literal braces inside a section must be balanced, and every `{{` closed by `}}`.",
                    ),
                );
            }
            Ok(TemplateSection { kind: kind?, text: text.into(), text_span: NO_SPAN, span: NO_SPAN })
        })?;
        Ok(TemplateBody { sections, span: NO_SPAN })
    }
}
