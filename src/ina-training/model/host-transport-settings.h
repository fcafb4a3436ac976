/*
 * Copyright (c) 2026 inasim authors
 * SPDX-License-Identifier: GPL-2.0-only
 */
#ifndef HOST_TRANSPORT_SETTINGS_H
#define HOST_TRANSPORT_SETTINGS_H

#include "ns3/attribute.h"
#include "ns3/enum.h"
#include "ns3/ina-transport-profile.h"
#include "ns3/nstime.h"
#include "ns3/object-base.h"
#include "ns3/object-factory.h"
#include "ns3/type-id.h"
#include "ns3/uinteger.h"

#include <string>

namespace ns3
{

/**
 * \ingroup ina-training
 * The transport a host baseline's flows run on (ring all-reduce, the sharded PS): a named
 * InaTransportProfile and the knobs that override it, declared once as Attributes of whichever
 * protocol holds it, so every baseline offers the same `params` with the same meaning.
 */
struct HostTransportSettings
{
    InaTransportProfile::Kind transport = InaTransportProfile::IDEAL;
    uint32_t mtu = 0;           //!< 0: the transport's default
    uint32_t initialWindow = 0; //!< 0: the transport's default
    uint32_t maxWindow = 0;     //!< 0: the transport's default
    Time minRto;                //!< 0: the transport's default
    Time messageOverhead;       //!< host software time per message (0: none)

    /**
     * Factories for the flows' senders and receivers: the profile, then the knobs that are set,
     * and `maxTimeouts` (the job's give-up count) unless the profile models a stack with its own
     * retry count (rdma: 7).
     */
    void MakeFactories(uint32_t maxTimeouts, ObjectFactory& sender, ObjectFactory& receiver) const;

    /**
     * Add the Attributes Transport, Mtu, InitialWindow, MaxWindow, MinRto and MessageOverhead to
     * `tid`, stored in `T::*settings`; `flows` names the flows in their help text.
     */
    template<class T>
    static TypeId AddAttributes(TypeId tid,
                                HostTransportSettings T::*settings,
                                const std::string& flows);

  private:
    /// An accessor to one field of the settings an object of class T holds.
    template<class T, class Field, class Value>
    class FieldAccessor : public AttributeAccessor
    {
      public:
        FieldAccessor(HostTransportSettings T::*settings, Field HostTransportSettings::*field)
            : m_settings(settings)
            , m_field(field)
        {
        }

        bool Set(ObjectBase* object, const AttributeValue& value) const override
        {
            T* obj = dynamic_cast<T*>(object);
            const Value* v = dynamic_cast<const Value*>(&value);
            if (obj == nullptr || v == nullptr)
            {
                return false;
            }
            (obj->*m_settings).*m_field = static_cast<Field>(v->Get());
            return true;
        }

        bool Get(const ObjectBase* object, AttributeValue& value) const override
        {
            const T* obj = dynamic_cast<const T*>(object);
            Value* v = dynamic_cast<Value*>(&value);
            if (obj == nullptr || v == nullptr)
            {
                return false;
            }
            v->Set((obj->*m_settings).*m_field);
            return true;
        }

        bool HasGetter() const override
        {
            return true;
        }

        bool HasSetter() const override
        {
            return true;
        }

      private:
        HostTransportSettings T::*m_settings;
        Field HostTransportSettings::*m_field;
    };

    template<class Value, class T, class Field>
    static Ptr<const AttributeAccessor> Accessor(HostTransportSettings T::*settings,
                                                 Field HostTransportSettings::*field)
    {
        return Ptr<const AttributeAccessor>(new FieldAccessor<T, Field, Value>(settings, field),
                                            false);
    }
};

template<class T>
TypeId
HostTransportSettings::AddAttributes(TypeId tid,
                                     HostTransportSettings T::*settings,
                                     const std::string& flows)
{
    const std::string of = " of " + flows;
    return tid
        .AddAttribute("Mtu",
                      "InaTransportSender::Mtu" + of + " (0: the transport's default).",
                      UintegerValue(0),
                      Accessor<UintegerValue>(settings, &HostTransportSettings::mtu),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("InitialWindow",
                      "InaTransportSender::InitialWindow" + of + " (0: the transport's default).",
                      UintegerValue(0),
                      Accessor<UintegerValue>(settings, &HostTransportSettings::initialWindow),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("MaxWindow",
                      "InaTransportSender::MaxWindow" + of + " (0: the transport's default).",
                      UintegerValue(0),
                      Accessor<UintegerValue>(settings, &HostTransportSettings::maxWindow),
                      MakeUintegerChecker<uint32_t>())
        .AddAttribute("MinRto",
                      "InaTransportSender::MinRto" + of + " (0: the transport's default).",
                      TimeValue(Time(0)),
                      Accessor<TimeValue>(settings, &HostTransportSettings::minRto),
                      MakeTimeChecker(Time(0)))
        .AddAttribute("Transport",
                      "Host transport" + of +
                          ": ideal (the transport's defaults, a data-centre-tuned upper bound), "
                          "tcp (Linux TCP: Reno, MinRto 200 ms, IW 10), dctcp (tcp with DCTCP's "
                          "ECN reaction) or rdma (RoCE: go-back-N, no window); see "
                          "InaTransportProfile. Mtu, InitialWindow, MaxWindow and MinRto, when "
                          "set, override it.",
                      EnumValue(InaTransportProfile::IDEAL),
                      Accessor<EnumValue>(settings, &HostTransportSettings::transport),
                      InaTransportProfile::MakeKindChecker())
        .AddAttribute("MessageOverhead",
                      "InaTransportSender::MessageOverhead" + of +
                          ": host software time per message (0: none).",
                      TimeValue(Time(0)),
                      Accessor<TimeValue>(settings, &HostTransportSettings::messageOverhead),
                      MakeTimeChecker(Time(0)));
}

} // namespace ns3

#endif /* HOST_TRANSPORT_SETTINGS_H */
